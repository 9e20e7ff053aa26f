package io.tablestream.core.model;

/** The property types of the Table service, a subset of OData's Entity Data Model types. */
public enum EdmType {
    BINARY("Edm.Binary"),
    BOOLEAN("Edm.Boolean"),
    DATE_TIME("Edm.DateTime"),
    DOUBLE("Edm.Double"),
    GUID("Edm.Guid"),
    INT32("Edm.Int32"),
    INT64("Edm.Int64"),
    STRING("Edm.String");

    private final String odataName;

    EdmType(String odataName) {
        this.odataName = odataName;
    }

    /** The name used in {@code @odata.type} annotations, e.g. {@code Edm.Int64}. */
    public String odataName() {
        return odataName;
    }

    /** The type named by an {@code @odata.type} annotation, or {@code null} if it names none of ours. */
    public static EdmType fromODataName(String name) {
        for (EdmType t : values()) {
            if (t.odataName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
