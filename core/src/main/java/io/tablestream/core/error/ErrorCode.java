package io.tablestream.core.error;

/**
 * The Azure Table storage error catalogue: each code with the HTTP status the service answers it
 * with and a default message. The codes are the service's own identifiers (clients and SDKs
 * branch on them); the messages are ours.
 *
 * <p>Every failure a client can see is one of these, raised as a {@link TableServiceException}
 * and written by one exception mapper as {@code odata.error} plus {@code x-ms-error-code}.
 */
public enum ErrorCode {
    // --- common storage codes ---
    AUTHENTICATION_FAILED("AuthenticationFailed", 403,
            "The request could not be authenticated: check the Authorization header and its signature."),
    AUTHORIZATION_FAILURE("AuthorizationFailure", 403,
            "This request is not authorized to perform this operation."),
    AUTHORIZATION_PERMISSION_MISMATCH("AuthorizationPermissionMismatch", 403,
            "The credentials used do not grant the permission this operation needs."),
    AUTHORIZATION_RESOURCE_TYPE_MISMATCH("AuthorizationResourceTypeMismatch", 403,
            "The credentials used do not cover this resource type."),
    AUTHORIZATION_SERVICE_MISMATCH("AuthorizationServiceMismatch", 403,
            "The credentials used do not cover the Table service."),
    AUTHORIZATION_SOURCE_IP_MISMATCH("AuthorizationSourceIPMismatch", 403,
            "This request is not authorized to perform this operation from this source IP address."),
    AUTHORIZATION_PROTOCOL_MISMATCH("AuthorizationProtocolMismatch", 403,
            "This request is not authorized to perform this operation using this protocol."),
    CORS_PREFLIGHT_FAILURE("CorsPreflightFailure", 403,
            "CORS not enabled or no matching rule found for this request."),
    INSUFFICIENT_ACCOUNT_PERMISSIONS("InsufficientAccountPermissions", 403,
            "The account being accessed does not have sufficient permissions to execute this operation."),
    INVALID_AUTHENTICATION_INFO("InvalidAuthenticationInfo", 400,
            "The authentication information is not in the expected format."),
    CONDITION_HEADERS_NOT_SUPPORTED("ConditionHeadersNotSupported", 400,
            "Condition headers are not supported for this operation."),
    INVALID_HEADER_VALUE("InvalidHeaderValue", 400,
            "The value of one of the HTTP headers is not in the correct format."),
    INVALID_INPUT("InvalidInput", 400,
            "One of the request inputs is not valid."),
    INVALID_QUERY_PARAMETER_VALUE("InvalidQueryParameterValue", 400,
            "The value of one of the query parameters in the request URI is not valid."),
    INVALID_RESOURCE_NAME("InvalidResourceName", 400,
            "The resource name is not valid."),
    INVALID_URI("InvalidUri", 400,
            "The request URI is not valid."),
    INVALID_XML_DOCUMENT("InvalidXmlDocument", 400,
            "The XML in the request is not syntactically valid."),
    INVALID_XML_NODE_VALUE("InvalidXmlNodeValue", 400,
            "The value of one of the XML nodes in the request is not in the correct format."),
    MISSING_REQUIRED_HEADER("MissingRequiredHeader", 400,
            "A header this request needs is missing."),
    MISSING_REQUIRED_QUERY_PARAMETER("MissingRequiredQueryParameter", 400,
            "A query parameter this request needs is missing."),
    OUT_OF_RANGE_INPUT("OutOfRangeInput", 400,
            "One of the request inputs is out of range."),
    OUT_OF_RANGE_QUERY_PARAMETER_VALUE("OutOfRangeQueryParameterValue", 400,
            "A query parameter in the request URI is outside the permissible range."),
    REQUEST_BODY_TOO_LARGE("RequestBodyTooLarge", 413,
            "The request body is too large."),
    RESOURCE_NOT_FOUND("ResourceNotFound", 404,
            "The specified resource does not exist."),
    UNSUPPORTED_HTTP_VERB("UnsupportedHttpVerb", 405,
            "The resource does not support the HTTP verb of the request."),
    UNSUPPORTED_QUERY_PARAMETER("UnsupportedQueryParameter", 400,
            "One of the query parameters in the request URI is not supported."),
    UNSUPPORTED_HEADER("UnsupportedHeader", 400,
            "One of the headers in the request is not supported."),
    MEDIA_TYPE_NOT_SUPPORTED("MediaTypeNotSupported", 415,
            "The media type of the request is not supported."),
    SERVER_BUSY("ServerBusy", 503,
            "The server is busy; retry the request later."),
    OPERATION_TIMED_OUT("OperationTimedOut", 500,
            "The operation could not be completed within the permitted time."),
    INTERNAL_ERROR("InternalError", 500,
            "The server encountered an internal error; retry the request."),
    NOT_IMPLEMENTED("NotImplemented", 501,
            "The requested operation is not implemented."),

    // --- Table service codes ---
    DUPLICATE_PROPERTIES_SPECIFIED("DuplicatePropertiesSpecified", 400,
            "A property is specified more than once."),
    ENTITY_NOT_FOUND("EntityNotFound", 404,
            "The specified entity does not exist."),
    ENTITY_ALREADY_EXISTS("EntityAlreadyExists", 409,
            "The specified entity already exists."),
    ENTITY_TOO_LARGE("EntityTooLarge", 400,
            "The entity is larger than the maximum size permitted."),
    HOST_INFORMATION_NOT_PRESENT("HostInformationNotPresent", 400,
            "The request carries no host information."),
    INVALID_DUPLICATE_ROW("InvalidDuplicateRow", 400,
            "An entity may appear only once in a batch."),
    INVALID_VALUE_TYPE("InvalidValueType", 400,
            "The value specified is not valid for its type."),
    JSON_FORMAT_NOT_SUPPORTED("JsonFormatNotSupported", 415,
            "The JSON format requested is not supported."),
    ATOM_FORMAT_NOT_SUPPORTED("AtomFormatNotSupported", 415,
            "The Atom format is not supported."),
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405,
            "The requested method is not allowed on this resource."),
    PROPERTIES_NEED_VALUE("PropertiesNeedValue", 400,
            "Values are not specified for all properties of the entity."),
    PROPERTY_NAME_INVALID("PropertyNameInvalid", 400,
            "The property name is not valid."),
    PROPERTY_NAME_TOO_LONG("PropertyNameTooLong", 400,
            "The property name exceeds the maximum length of 255 characters."),
    PROPERTY_VALUE_TOO_LARGE("PropertyValueTooLarge", 400,
            "The property value exceeds the maximum size permitted (64 KiB)."),
    TABLE_ALREADY_EXISTS("TableAlreadyExists", 409,
            "The table specified already exists."),
    TABLE_BEING_DELETED("TableBeingDeleted", 409,
            "The table specified is being deleted."),
    TABLE_NOT_FOUND("TableNotFound", 404,
            "The table specified does not exist."),
    TOO_MANY_PROPERTIES("TooManyProperties", 400,
            "The entity has more properties than permitted (255 including the system properties)."),
    UPDATE_CONDITION_NOT_SATISFIED("UpdateConditionNotSatisfied", 412,
            "The update condition specified in the request was not satisfied."),
    X_METHOD_INCORRECT_COUNT("XMethodIncorrectCount", 400,
            "More than one X-HTTP-Method header is specified."),
    X_METHOD_INCORRECT_VALUE("XMethodIncorrectValue", 400,
            "The X-HTTP-Method header value is not valid."),
    X_METHOD_NOT_USING_POST("XMethodNotUsingPost", 400,
            "The X-HTTP-Method header is only allowed on POST requests."),
    COMMANDS_IN_BATCH_ACT_ON_DIFFERENT_PARTITIONS("CommandsInBatchActOnDifferentPartitions", 400,
            "All operations of a change set must share one PartitionKey."),
    // --- extensions (not Azure's): secondary indexes, cross-partition transactions, jobs ---
    INDEX_ALREADY_EXISTS("IndexAlreadyExists", 409,
            "The table already has an index of that name."),
    INDEX_NOT_FOUND("IndexNotFound", 404,
            "The table has no index of that name."),
    TOO_MANY_INDEXES("TooManyIndexes", 400,
            "A table has at most 8 secondary indexes."),
    TRANSACTION_NOT_FOUND("TransactionNotFound", 404,
            "No transaction with that id is known."),
    JOB_NOT_FOUND("JobNotFound", 404,
            "No job with that id is known (finished jobs are kept a while, then forgotten).");

    private final String code;
    private final int httpStatus;
    private final String defaultMessage;

    ErrorCode(String code, int httpStatus, String defaultMessage) {
        this.code = code;
        this.httpStatus = httpStatus;
        this.defaultMessage = defaultMessage;
    }

    /** The service's identifier, as sent in {@code x-ms-error-code} and {@code odata.error.code}. */
    public String code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String defaultMessage() {
        return defaultMessage;
    }

    /** The catalogue entry for a service identifier, or {@code null} when it is not one of ours. */
    public static ErrorCode fromCode(String code) {
        for (ErrorCode c : values()) {
            if (c.code.equals(code)) {
                return c;
            }
        }
        return null;
    }
}
