package io.tablestream.protocol.xml;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractThrowableAssert;

/** Helpers shared by the XML codec tests. */
final class XmlBodies {
    /** What the service puts before every XML body it writes. */
    static final String PROLOG = "\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\"?>";

    /** A DTD declaring an entity that expands to 10^9 copies of a short string. */
    static final String BILLION_LAUGHS = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n"
            + " <!ENTITY lol \"lol\">\n"
            + " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
            + " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
            + " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
            + " <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
            + " <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
            + " <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
            + " <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
            + " <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
            + " <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n"
            + "]>\n";

    /** A DTD declaring an external entity that would read a local file. */
    static final String EXTERNAL_FILE_ENTITY = "<?xml version=\"1.0\"?>\n"
            + "<!DOCTYPE foo [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]>\n";

    /** A DTD with an external parameter entity fetched over the network. */
    static final String EXTERNAL_PARAMETER_ENTITY = "<?xml version=\"1.0\"?>\n"
            + "<!DOCTYPE foo [ <!ENTITY % remote SYSTEM \"http://127.0.0.1:9/evil.dtd\"> %remote; ]>\n";

    /** An external DTD subset. */
    static final String EXTERNAL_DTD = "<?xml version=\"1.0\"?>\n"
            + "<!DOCTYPE foo SYSTEM \"http://127.0.0.1:9/evil.dtd\">\n";

    private XmlBodies() {
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(Runnable parse, ErrorCode code) {
        return assertThatThrownBy(parse::run)
                .isInstanceOf(TableServiceException.class)
                .satisfies((Consumer<Throwable>) t -> org.assertj.core.api.Assertions
                        .assertThat(((TableServiceException) t).errorCode()).isEqualTo(code));
    }
}
