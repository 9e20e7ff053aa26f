package io.tablestream.core.model;

/**
 * A typed, non-null property value. The Table service does not store nulls, so there is no null
 * value here: a property written as null is simply absent.
 */
public sealed interface EdmValue
        permits EdmBinary, EdmBoolean, EdmDateTime, EdmDouble, EdmGuid, EdmInt32, EdmInt64, EdmString {

    EdmType type();
}
