package io.tablestream.protocol.xml;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.ArrayList;
import java.util.List;

/**
 * An element of a parsed request body: its local name, the text directly inside it, and its child
 * elements in document order. Attributes, comments and processing instructions are not kept.
 */
record XmlElement(String name, String text, List<XmlElement> children) {
    XmlElement {
        children = List.copyOf(children);
    }

    /** The children named {@code childName}, in document order. */
    List<XmlElement> all(String childName) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : children) {
            if (c.name.equals(childName)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The child named {@code childName}, or {@code null}; {@code InvalidXmlDocument} when there are two. */
    XmlElement optional(String childName) {
        List<XmlElement> found = all(childName);
        if (found.size() > 1) {
            throw invalidDocument("The element " + name + " has more than one " + childName + " element.");
        }
        return found.isEmpty() ? null : found.get(0);
    }

    /** The one child named {@code childName}; {@code InvalidXmlDocument} when it is missing or repeated. */
    XmlElement required(String childName) {
        XmlElement found = optional(childName);
        if (found == null) {
            throw invalidDocument("The element " + name + " must contain a " + childName + " element.");
        }
        return found;
    }

    /** The text of a value element; {@code InvalidXmlDocument} when it holds elements instead. */
    String value() {
        if (!children.isEmpty()) {
            throw invalidDocument("The element " + name + " must hold a value, not elements.");
        }
        return text;
    }

    static TableServiceException invalidDocument(String reason) {
        return TableServiceException.of(ErrorCode.INVALID_XML_DOCUMENT, "XML specified is not syntactically valid: " + reason);
    }

    static TableServiceException invalidValue(String reason) {
        return TableServiceException.of(ErrorCode.INVALID_XML_NODE_VALUE,
                "The value for one of the XML nodes is not in the correct format: " + reason);
    }

    static TableServiceException invalidValue(String path, String value, String reason) {
        String shown = value.length() > 80 ? value.substring(0, 80) + "…" : value;
        return TableServiceException.of(ErrorCode.INVALID_XML_NODE_VALUE,
                "The value for one of the XML nodes is not in the correct format: " + path + " = '" + shown + "' ("
                        + reason + ").");
    }
}
