package io.tablestream.protocol.xml;

import static io.tablestream.protocol.xml.XmlElement.invalidDocument;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a small XML request body into an {@link XmlElement} tree with the JDK's StAX parser, safely:
 * a body with a document type declaration is refused before any of it is used (so no entity is
 * ever declared, expanded or fetched), external resolution is switched off besides, and size,
 * depth and element count are bounded.
 */
final class SecureXmlReader {
    /** Bytes of an XML request body. */
    static final int MAX_BODY_BYTES = 64 * 1024;
    /** Nesting depth of elements. */
    static final int MAX_DEPTH = 16;
    /** Elements in one body. */
    static final int MAX_ELEMENTS = 2048;

    private SecureXmlReader() {
    }

    /** The whole body, refusing one over {@link #MAX_BODY_BYTES} with {@code RequestBodyTooLarge}. */
    static byte[] readBounded(InputStream in) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (out.size() + n > MAX_BODY_BYTES) {
                    throw tooLarge();
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a body holds nothing but (possibly) white space. */
    static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }

    /**
     * The root element of {@code body}.
     *
     * @throws TableServiceException {@code InvalidXmlDocument} for anything that is not one
     *         well-formed element tree without a DTD; {@code RequestBodyTooLarge} past the size bound
     */
    static XmlElement parse(byte[] body) {
        if (body.length > MAX_BODY_BYTES) {
            throw tooLarge();
        }
        XMLStreamReader r = null;
        try {
            r = factory().createXMLStreamReader(new ByteArrayInputStream(body));
            return readDocument(r);
        } catch (XMLStreamException | RuntimeException e) {
            if (e instanceof TableServiceException) {
                throw (TableServiceException) e;
            }
            throw TableServiceException.of(ErrorCode.INVALID_XML_DOCUMENT,
                    "XML specified is not syntactically valid: " + firstLine(e.getMessage()), e);
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // nothing to release beyond the in-memory input
                }
            }
        }
    }

    private static XmlElement readDocument(XMLStreamReader r) throws XMLStreamException {
        Deque<Builder> open = new ArrayDeque<>();
        XmlElement root = null;
        int elements = 0;
        while (r.hasNext()) {
            int event = r.next();
            switch (event) {
                case XMLStreamConstants.DTD:
                    throw invalidDocument("a document type declaration (DTD) is not allowed.");
                case XMLStreamConstants.ENTITY_REFERENCE:
                case XMLStreamConstants.ENTITY_DECLARATION:
                case XMLStreamConstants.NOTATION_DECLARATION:
                    throw invalidDocument("entity references are not allowed.");
                case XMLStreamConstants.START_ELEMENT:
                    if (root != null) {
                        throw invalidDocument("only one root element is allowed.");
                    }
                    if (++elements > MAX_ELEMENTS) {
                        throw invalidDocument("more than " + MAX_ELEMENTS + " elements.");
                    }
                    if (open.size() >= MAX_DEPTH) {
                        throw invalidDocument("elements nested deeper than " + MAX_DEPTH + " levels.");
                    }
                    open.push(new Builder(r.getLocalName()));
                    break;
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    if (open.isEmpty()) {
                        if (!r.isWhiteSpace()) {
                            throw invalidDocument("text outside the root element.");
                        }
                    } else {
                        open.peek().text.append(r.getText());
                    }
                    break;
                case XMLStreamConstants.END_ELEMENT:
                    XmlElement done = open.pop().build();
                    if (open.isEmpty()) {
                        root = done;
                    } else {
                        open.peek().children.add(done);
                    }
                    break;
                default:
                    // comments, processing instructions, start/end of document: nothing to keep
                    break;
            }
        }
        if (root == null) {
            throw invalidDocument("the body has no root element.");
        }
        return root;
    }

    private static XMLInputFactory factory() {
        // The JDK's own implementation, whatever else is on the class path; a fresh one per body,
        // since a factory's readers are not guaranteed to be independent across threads.
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("External resources are not resolved: " + systemId);
        });
        return f;
    }

    private static TableServiceException tooLarge() {
        return TableServiceException.of(ErrorCode.REQUEST_BODY_TOO_LARGE,
                "The XML request body is larger than " + MAX_BODY_BYTES + " bytes.");
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed XML.";
        }
        String m = message.strip();
        int nl = m.indexOf('\n');
        m = nl < 0 ? m : m.substring(nl + 1).strip();   // StAX puts "ParseError at [row,col]" first
        return m.length() > 200 ? m.substring(0, 200) + "…" : m;
    }

    private static final class Builder {
        final String name;
        final StringBuilder text = new StringBuilder();
        final List<XmlElement> children = new ArrayList<>();

        Builder(String name) {
            this.name = name;
        }

        XmlElement build() {
            String t = text.toString();
            if (!children.isEmpty() && !t.isBlank()) {
                throw invalidDocument("the element " + name + " mixes text and elements.");
            }
            return new XmlElement(name, children.isEmpty() ? t : "", children);
        }
    }
}
