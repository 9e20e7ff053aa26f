package io.tablestream.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.protocol.request.Operation;
import io.tablestream.protocol.request.ResourcePath;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OperationResolverTest {

    private static Operation resolve(String method, String xMethod, String path, String comp, String restype,
                                     boolean ifMatch) {
        return OperationResolver.resolve(method, xMethod == null ? List.of() : List.of(xMethod),
                ResourcePath.parse(path).resource(), comp, restype, ifMatch);
    }

    @ParameterizedTest(name = "{0} {2} comp={3} ifMatch={5} -> {6}")
    @CsvSource(nullValues = "-", delimiter = '|', value = {
            "GET | - | /a/Tables | - | - | false | QUERY_TABLES",
            "GET | - | /a/Tables('t') | - | - | false | QUERY_TABLES",
            "POST | - | /a/Tables | - | - | false | CREATE_TABLE",
            "DELETE | - | /a/Tables('t') | - | - | false | DELETE_TABLE",
            "GET | - | /a/t() | - | - | false | QUERY_ENTITIES",
            "GET | - | /a/t | - | - | false | QUERY_ENTITIES",
            "GET | - | /a/t(PartitionKey='p',RowKey='r') | - | - | false | GET_ENTITY",
            "POST | - | /a/t | - | - | false | INSERT_ENTITY",
            "PUT | - | /a/t(PartitionKey='p',RowKey='r') | - | - | true | UPDATE_ENTITY",
            "PUT | - | /a/t(PartitionKey='p',RowKey='r') | - | - | false | INSERT_OR_REPLACE_ENTITY",
            "MERGE | - | /a/t(PartitionKey='p',RowKey='r') | - | - | true | MERGE_ENTITY",
            "PATCH | - | /a/t(PartitionKey='p',RowKey='r') | - | - | true | MERGE_ENTITY",
            "PATCH | - | /a/t(PartitionKey='p',RowKey='r') | - | - | false | INSERT_OR_MERGE_ENTITY",
            "POST | MERGE | /a/t(PartitionKey='p',RowKey='r') | - | - | true | MERGE_ENTITY",
            "POST | merge | /a/t(PartitionKey='p',RowKey='r') | - | - | false | INSERT_OR_MERGE_ENTITY",
            "POST | DELETE | /a/t(PartitionKey='p',RowKey='r') | - | - | true | DELETE_ENTITY",
            "DELETE | - | /a/t(PartitionKey='p',RowKey='r') | - | - | true | DELETE_ENTITY",
            "POST | - | /a/$batch | - | - | false | BATCH",
            "GET | - | /a/t | acl | - | false | GET_TABLE_ACL",
            "PUT | - | /a/t | acl | - | false | SET_TABLE_ACL",
            "GET | - | /a/ | properties | service | false | GET_SERVICE_PROPERTIES",
            "PUT | - | /a/ | properties | service | false | SET_SERVICE_PROPERTIES",
            "OPTIONS | - | /a/t | - | - | false | PREFLIGHT",
            "GET | - | /a/ | stats | service | false | GET_SERVICE_STATS",
            "GET | - | /a/t()/$count | - | - | false | COUNT_ENTITIES",
            "DELETE | - | /a/t() | - | - | false | DELETE_ENTITIES",
            "DELETE | - | /a/t | - | - | false | DELETE_ENTITIES",
            "POST | DELETE | /a/t() | - | - | false | DELETE_ENTITIES",
            "POST | - | /a/t()/$restore | - | - | false | RESTORE_TABLE",
            "POST | - | /a/t/$restore | - | - | false | RESTORE_TABLE",
            "GET | - | /a/$jobs | - | - | false | LIST_JOBS",
            "GET | - | /a/$jobs/0f8e | - | - | false | GET_JOB",
    })
    void resolvesEachOperation(String method, String xMethod, String path, String comp, String restype,
                               boolean ifMatch, Operation expected) {
        assertThat(resolve(method, xMethod, path, comp, restype, ifMatch)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} {2} -> {5}")
    @CsvSource(nullValues = "-", delimiter = '|', value = {
            "DELETE | - | /a/Tables | - | - | UnsupportedHttpVerb",
            "PUT | - | /a/Tables('t') | - | - | UnsupportedHttpVerb",
            "GET | - | /a/$batch | - | - | UnsupportedHttpVerb",
            "DELETE | - | /a/t | acl | - | UnsupportedHttpVerb",
            "GET | - | /a/t()/$restore | - | - | UnsupportedHttpVerb",
            "DELETE | - | /a/$jobs | - | - | UnsupportedHttpVerb",
            "DELETE | - | /a/$jobs/0f8e | - | - | UnsupportedHttpVerb",
            "POST | - | /a/t(PartitionKey='p',RowKey='r') | - | - | UnsupportedHttpVerb",
            "PUT | MERGE | /a/t(PartitionKey='p',RowKey='r') | - | - | XMethodNotUsingPost",
            "POST | GET | /a/t(PartitionKey='p',RowKey='r') | - | - | XMethodIncorrectValue",
            "GET | - | /a/t | foo | - | InvalidQueryParameterValue",
            "GET | - | /a/ | - | - | InvalidQueryParameterValue",
            "PUT | - | /a/ | stats | service | UnsupportedHttpVerb",
            "POST | - | /a/t()/$count | - | - | UnsupportedHttpVerb",
            "DELETE | - | /a/t()/$count | - | - | UnsupportedHttpVerb",
    })
    void rejectsWhatTheServiceDoesNotDo(String method, String xMethod, String path, String comp, String restype,
                                        String code) {
        assertThatThrownBy(() -> resolve(method, xMethod, path, comp, restype, false))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode().code()).isEqualTo(code));
    }

    @org.junit.jupiter.api.Test
    void rejectsTwoXHttpMethodHeaders() {
        assertThatThrownBy(() -> OperationResolver.resolve("POST", List.of("MERGE", "DELETE"),
                ResourcePath.parse("/a/t(PartitionKey='p',RowKey='r')").resource(), null, null, false))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.X_METHOD_INCORRECT_COUNT));
    }
}
