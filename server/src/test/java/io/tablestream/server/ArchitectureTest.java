package io.tablestream.server;

import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the design states, as rules the build checks on every product module's main classes
 * (this module's test classpath holds all of them; the benchmarks are not among them): the domain is free of Kafka and HTTP, the protocol
 * layer and the HTTP handlers are free of Kafka, the stream processor's internals stay inside it,
 * and no two packages depend on each other in a cycle. docs/architecture.md describes the modules.
 */
class ArchitectureTest {

    private static final String KAFKA = "org.apache.kafka..";
    private static final String JAVALIN = "io.javalin..";
    private static final String JETTY = "org.eclipse.jetty..";

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tablestream");
    }

    @Test
    void everyModuleIsImported() {
        for (String pkg : new String[] {"io.tablestream.core", "io.tablestream.schemas",
                "io.tablestream.protocol", "io.tablestream.processor", "io.tablestream.ingest",
                "io.tablestream.query", "io.tablestream.server", "io.tablestream.cli", "io.tablestream.client",
                "io.tablestream.kafka.embedded"}) {
            assertThat(main.containPackage(pkg)).as(pkg).isTrue();
        }
    }

    @Test
    void coreIsFreeOfKafkaAndHttp() {
        noClasses().that().resideInAPackage("io.tablestream.core..")
                .should().dependOnClassesThat().resideInAnyPackage(KAFKA, JAVALIN, JETTY, "jakarta.servlet..")
                .because("core is the domain: names, keys, Edm values, rules, filters and errors")
                .check(main);
    }

    @Test
    void protocolIsFreeOfKafka() {
        noClasses().that().resideInAPackage("io.tablestream.protocol..")
                .should().dependOnClassesThat().resideInAPackage(KAFKA)
                .because("the request pipeline, authentication and formats serve both APIs without the log")
                .check(main);
    }

    @Test
    void httpPackagesAreFreeOfKafka() {
        noClasses().that().resideInAPackage("io.tablestream..http..")
                .should().dependOnClassesThat().resideInAPackage(KAFKA)
                .because("handlers call interfaces (a command publisher, a store reader); Kafka lives in the"
                        + " processor, the producer and the router's kafka packages")
                .check(main);
    }

    @Test
    void processorInternalsStayInTheProcessor() {
        noClasses().that().resideOutsideOfPackage("io.tablestream.processor..")
                .should().dependOnClassesThat().resideInAPackage("io.tablestream.processor.internal..")
                .because("other modules read through processor.store, as Kafka's state beside state.internals")
                .check(main);
    }

    /**
     * A package and its {@code internal} sub-package are one unit here, as Kafka's {@code state} and
     * {@code state.internals}: the public side builds its machinery, the machinery implements the
     * public types. Between units, and between every other pair of packages, no cycle.
     */
    @Test
    void noCyclesBetweenPackages() {
        slices().assignedFrom(PACKAGE_WITH_ITS_INTERNALS)
                .should().beFreeOfCycles()
                .check(main);
    }

    private static final SliceAssignment PACKAGE_WITH_ITS_INTERNALS = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            if (!pkg.startsWith("io.tablestream.")) {
                return SliceIdentifier.ignore();
            }
            return SliceIdentifier.of(pkg.endsWith(".internal") ? pkg.substring(0, pkg.length() - ".internal".length()) : pkg);
        }

        @Override
        public String getDescription() {
            return "packages of io.tablestream, each with its internal sub-package";
        }
    };
}
