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
    /** A resource that takes one method, and the operation that method is. */
    private record OneMethod(Class<? extends ResourcePath> resource, String method, Operation operation) {
    }

    private static final List<OneMethod> ONE_METHOD = List.of(
            new OneMethod(ResourcePath.Batch.class, "POST", Operation.BATCH),
            new OneMethod(ResourcePath.EntityHistory.class, "GET", Operation.GET_ENTITY_HISTORY),
            new OneMethod(ResourcePath.EntityPartition.class, "DELETE", Operation.DELETE_PARTITION),
            new OneMethod(ResourcePath.EntityChanges.class, "GET", Operation.READ_CHANGES),
            new OneMethod(ResourcePath.EntityBulk.class, "POST", Operation.BULK_WRITE),
            new OneMethod(ResourcePath.EntityCount.class, "GET", Operation.COUNT_ENTITIES),
            new OneMethod(ResourcePath.TransactionCollection.class, "POST", Operation.SUBMIT_TRANSACTION),
            new OneMethod(ResourcePath.TransactionItem.class, "GET", Operation.GET_TRANSACTION),
            new OneMethod(ResourcePath.TableRestore.class, "POST", Operation.RESTORE_TABLE),
            new OneMethod(ResourcePath.JobCollection.class, "GET", Operation.LIST_JOBS),
            new OneMethod(ResourcePath.JobItem.class, "GET", Operation.GET_JOB));

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
        for (OneMethod one : ONE_METHOD) {
            if (one.resource().isInstance(resource)) {
                return only(one.operation(), one.method(), effective, method);
            }
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
