package io.tablestream.protocol.http;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import java.util.List;
import java.util.Locale;

/**
 * Decides which operation a request is, from its method (with the {@code X-HTTP-Method} tunnel of
 * POST), what its path addresses, its {@code comp}/{@code restype} parameters and {@code If-Match}.
 * PUT and MERGE without {@code If-Match} are the upserts, as in the service.
 */
public final class OperationResolver {
    private OperationResolver() {
    }

    /**
     * @param method the request method (upper case as sent)
     * @param xHttpMethod every value of the {@code X-HTTP-Method} header (empty list if none)
     * @param comp the {@code comp} query parameter, or null
     * @param restype the {@code restype} query parameter, or null
     * @param hasIfMatch whether an {@code If-Match} header is present
     */
    public static Operation resolve(String method, List<String> xHttpMethod, ResourcePath resource, String comp,
                                    String restype, boolean hasIfMatch) {
        String effective = effectiveMethod(method, xHttpMethod);
        if (effective.equals("OPTIONS")) {
            return Operation.PREFLIGHT;
        }
        if (resource instanceof ResourcePath.Service) {
            if ("service".equals(restype) && "properties".equals(comp)) {
                return switch (effective) {
                    case "GET" -> Operation.GET_SERVICE_PROPERTIES;
                    case "PUT" -> Operation.SET_SERVICE_PROPERTIES;
                    default -> throw verb(method);
                };
            }
            if ("service".equals(restype) && "stats".equals(comp)) {
                // served on the secondary location only (Locations)
                return only(Operation.GET_SERVICE_STATS, "GET", effective, method);
            }
            throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                    "The service resource takes restype=service with comp=properties or comp=stats.");
        }
        if (resource instanceof ResourcePath.TableCollection) {
            return switch (effective) {
                case "GET" -> Operation.QUERY_TABLES;
                case "POST" -> Operation.CREATE_TABLE;
                default -> throw verb(method);
            };
        }
        if (resource instanceof ResourcePath.TableItem) {
            return switch (effective) {
                case "GET" -> Operation.QUERY_TABLES;
                case "DELETE" -> Operation.DELETE_TABLE;
                default -> throw verb(method);
            };
        }
        if (resource instanceof ResourcePath.Batch) {
            return only(Operation.BATCH, "POST", effective, method);
        }
        if (resource instanceof ResourcePath.EntityHistory) {
            return only(Operation.GET_ENTITY_HISTORY, "GET", effective, method);
        }
        if (resource instanceof ResourcePath.EntityPartition) {
            return only(Operation.DELETE_PARTITION, "DELETE", effective, method);
        }
        if (resource instanceof ResourcePath.EntityChanges) {
            return only(Operation.READ_CHANGES, "GET", effective, method);
        }
        if (resource instanceof ResourcePath.EntityBulk) {
            return only(Operation.BULK_WRITE, "POST", effective, method);
        }
        if (resource instanceof ResourcePath.EntityCount) {
            return only(Operation.COUNT_ENTITIES, "GET", effective, method);
        }
        if (resource instanceof ResourcePath.TransactionCollection) {
            return only(Operation.SUBMIT_TRANSACTION, "POST", effective, method);
        }
        if (resource instanceof ResourcePath.TransactionItem) {
            return only(Operation.GET_TRANSACTION, "GET", effective, method);
        }
        if (resource instanceof ResourcePath.TableRestore) {
            return only(Operation.RESTORE_TABLE, "POST", effective, method);
        }
        if (resource instanceof ResourcePath.JobCollection) {
            return only(Operation.LIST_JOBS, "GET", effective, method);
        }
        if (resource instanceof ResourcePath.JobItem) {
            return only(Operation.GET_JOB, "GET", effective, method);
        }
        if (resource instanceof ResourcePath.EntityCollection) {
            if ("acl".equals(comp)) {
                return switch (effective) {
                    case "GET" -> Operation.GET_TABLE_ACL;
                    case "PUT" -> Operation.SET_TABLE_ACL;
                    default -> throw verb(method);
                };
            }
            if ("indexes".equals(comp)) {
                return switch (effective) {
                    case "GET" -> Operation.LIST_INDEXES;
                    case "POST" -> Operation.CREATE_INDEX;
                    case "DELETE" -> Operation.DROP_INDEX;
                    default -> throw verb(method);
                };
            }
            if (comp != null) {
                throw TableServiceException.of(ErrorCode.INVALID_QUERY_PARAMETER_VALUE,
                        "The comp parameter of a table is 'acl' (or the extension 'indexes').");
            }
            return switch (effective) {
                case "GET" -> Operation.QUERY_ENTITIES;
                case "POST" -> Operation.INSERT_ENTITY;
                case "DELETE" -> Operation.DELETE_ENTITIES; // an extension: its $filter is required
                default -> throw verb(method);
            };
        }
        return switch (effective) {
            case "GET" -> Operation.GET_ENTITY;
            case "PUT" -> hasIfMatch ? Operation.UPDATE_ENTITY : Operation.INSERT_OR_REPLACE_ENTITY;
            case "MERGE", "PATCH" -> hasIfMatch ? Operation.MERGE_ENTITY : Operation.INSERT_OR_MERGE_ENTITY;
            case "DELETE" -> Operation.DELETE_ENTITY;
            default -> throw verb(method);
        };
    }

    private static String effectiveMethod(String method, List<String> xHttpMethod) {
        if (xHttpMethod.isEmpty()) {
            return method;
        }
        if (!method.equals("POST")) {
            throw TableServiceException.of(ErrorCode.X_METHOD_NOT_USING_POST);
        }
        if (xHttpMethod.size() != 1) {
            throw TableServiceException.of(ErrorCode.X_METHOD_INCORRECT_COUNT);
        }
        String tunnelled = xHttpMethod.get(0).trim().toUpperCase(Locale.ROOT);
        return switch (tunnelled) {
            case "MERGE", "PUT", "DELETE", "PATCH" -> tunnelled;
            default -> throw TableServiceException.of(ErrorCode.X_METHOD_INCORRECT_VALUE);
        };
    }

    /** {@code operation} when the resource is asked with the one method it takes, else the verb's refusal. */
    private static Operation only(Operation operation, String accepted, String effective, String method) {
        if (effective.equals(accepted)) {
            return operation;
        }
        throw verb(method);
    }

    private static TableServiceException verb(String method) {
        return TableServiceException.of(ErrorCode.UNSUPPORTED_HTTP_VERB,
                "The resource does not support the HTTP verb " + method + ".");
    }
}
