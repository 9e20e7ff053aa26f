package io.tablestream.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that needs a real Kafka broker: its test methods, constructors and lifecycle
 * methods may declare a {@link KafkaCluster} parameter. See {@link KafkaExtension} for which broker.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KafkaExtension.class)
public @interface KafkaTest {
}
