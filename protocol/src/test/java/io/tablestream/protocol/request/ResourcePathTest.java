package io.tablestream.protocol.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResourcePathTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "/acct|acct|Service[]",
            "/acct/|acct|Service[]",
            "/acct/Tables|acct|TableCollection[]",
            "/acct/Tables()|acct|TableCollection[]",
            "/acct/Tables('MyTable')|acct|TableItem[name=MyTable]",
            "/acct/Tables(%27MyTable%27)|acct|TableItem[name=MyTable]",
            "/acct/$batch|acct|Batch[]",
            "/acct/orders|acct|EntityCollection[table=orders]",
            "/acct/orders()|acct|EntityCollection[table=orders]",
            "/acct/orders(PartitionKey='p',RowKey='r')|acct|EntityItem[table=orders, partitionKey=p, rowKey=r]",
            "/acct/orders(RowKey='r',PartitionKey='p')|acct|EntityItem[table=orders, partitionKey=p, rowKey=r]",
            "/acct/orders(PartitionKey='p', RowKey='r')|acct|EntityItem[table=orders, partitionKey=p, rowKey=r]",
            "/acct/orders(PartitionKey='it''s',RowKey='')|acct|EntityItem[table=orders, partitionKey=it's, rowKey=]",
            "/acct/orders(PartitionKey=%27a%20b%27,RowKey=%27%C3%A9%27)|acct|EntityItem[table=orders, partitionKey=a b, rowKey=é]",
            "/acct/orders(PartitionKey='(x),=',RowKey='y')|acct|EntityItem[table=orders, partitionKey=(x)\\,=, rowKey=y]",
            "/devstoreaccount1/orders(PartitionKey='%F0%9F%98%80',RowKey='+')|devstoreaccount1|EntityItem[table=orders, partitionKey=\uD83D\uDE00, rowKey=+]",
            "/acct/orders(PartitionKey='a%2Cb',RowKey='c%3Bd%3D%25%20')|acct|EntityItem[table=orders, partitionKey=a\\,b, rowKey=c;d=% ]",
            "/acct/orders/|acct|EntityCollection[table=orders]",
            "/acct/orders()/$count|acct|EntityCount[table=orders]",
            "/acct/orders/$count|acct|EntityCount[table=orders]",
            "/acct/orders()/$changes|acct|EntityChanges[table=orders]",
            "/acct/orders()/%24count/|acct|EntityCount[table=orders]",
            "/acct/orders(PartitionKey='p')/$partition|acct|EntityPartition[table=orders, partitionKey=p]",
            "/acct/orders(PartitionKey='it''s')/%24partition|acct|EntityPartition[table=orders, partitionKey=it's]",
            "/acct/orders( PartitionKey = '' )/$partition/|acct|EntityPartition[table=orders, partitionKey=]",
            "/acct/orders()/$restore|acct|TableRestore[table=orders]",
            "/acct/orders/%24restore|acct|TableRestore[table=orders]",
            "/acct/$jobs|acct|JobCollection[]",
            "/acct/$jobs/|acct|JobCollection[]",
            "/acct/$jobs/3c1f7a2e-0000-4000-8000-000000000001|acct|JobItem[jobId=3c1f7a2e-0000-4000-8000-000000000001]",
    })
    void parsesWhatAPathAddresses(String path, String account, String resource) {
        ResourcePath.Target target = ResourcePath.parse(path);

        assertThat(target.account()).isEqualTo(account);
        assertThat(target.secondary()).isFalse();
        assertThat(target.resource().toString()).isEqualTo(resource.replace("\\,", ","));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "/acct-secondary/|Service[]",
            "/acct-secondary|Service[]",
            "/acct-secondary/Tables|TableCollection[]",
            "/acct-secondary/orders()|EntityCollection[table=orders]",
            "/acct-secondary/orders(PartitionKey='p',RowKey='r')|EntityItem[table=orders, partitionKey=p, rowKey=r]",
            // the Python SDK's form: its secondary host in front of the primary's path
            "/acct-secondary/acct/|Service[]",
            "/acct-secondary/acct/orders()|EntityCollection[table=orders]",
            // a table named like the account stays a table
            "/acct-secondary/acct|EntityCollection[table=acct]",
    })
    void parsesTheSecondaryLocationOfAnAccount(String path, String resource) {
        ResourcePath.Target target = ResourcePath.parse(path);

        assertThat(target.account()).isEqualTo("acct");
        assertThat(target.secondary()).isTrue();
        assertThat(target.resource().toString()).isEqualTo(resource);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "''",
            "noslash",
            "/",
            "/acct/a/b",
            "/acct/orders(PartitionKey='a/b',RowKey='r')",
            "/acct/orders//",
            "/acct/orders(PartitionKey='p'",
            "/acct/orders(PartitionKey='p')",
            "/acct/orders(PartitionKey='p',RowKey='r',X='y')",
            "/acct/orders(PartitionKey='p',PartitionKey='r')",
            "/acct/orders(PartitionKey='p,RowKey='r')",
            "/acct/orders(PartitionKey=p,RowKey='r')",
            "/acct/orders(PartitionKey='p',RowKey='r')x",
            "/acct/Tables('a')('b')",
            "/acct/orders(PartitionKey='%ZZ',RowKey='r')",
            "/acct/orders(PartitionKey='%C3',RowKey='r')",
            "/acct/orders(PartitionKey='%',RowKey='r')",
            "/acct/(PartitionKey='p',RowKey='r')",
            "/acct/Tables/$count",
            "/acct/$batch/$count",
            "/acct/orders(PartitionKey='p',RowKey='r')/$count",
            "/acct/orders()/$count/x",
            "/acct/orders()/count",
            "/acct/orders(PartitionKey='p',RowKey='r')/$partition",
            "/acct/orders(RowKey='r')/$partition",
            "/acct/orders()/$partition",
            "/acct/orders/$partition",
            "/acct/orders(PartitionKey='p')/$partition/x",
            "/acct/Tables(PartitionKey='p')/$partition",
            "/acct/$batch/$partition",
            "/acct/orders(PartitionKey='p')x/$partition",
            "/acct/$jobs/a/b",
            "/acct/Tables/$restore",
            "/acct/orders(PartitionKey='p',RowKey='r')/$restore",
    })
    void rejectsPathsThatAddressNothing(String path) {
        assertThatThrownBy(() -> ResourcePath.parse(path))
                .isInstanceOfSatisfying(TableServiceException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_URI));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "/acct/orders(PartitionKey='a%2Fb',RowKey='r')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='a%2Fb')/$partition|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='p',RowKey='c%2fd')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='p',RowKey='%3F')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='%23',RowKey='r')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='p',RowKey='%5C')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey=';%00',RowKey='r')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='p',RowKey='%1F')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='p',RowKey='%7F')|OUT_OF_RANGE_INPUT",
            "/acct/orders(PartitionKey='%C2%9F',RowKey='r')|OUT_OF_RANGE_INPUT",
    })
    void refusesAKeyNoEntityCanHaveWithTheKeyRulesError(String path, ErrorCode code) {
        assertThatThrownBy(() -> ResourcePath.parse(path))
                .isInstanceOfSatisfying(TableServiceException.class, e -> assertThat(e.errorCode()).isEqualTo(code));
    }

    @Test
    void refusesAKeyOverOneKibibyteWithTheKeyRulesError() {
        String path = "/acct/orders(PartitionKey='p',RowKey='" + "k".repeat(513) + "')";

        assertThatThrownBy(() -> ResourcePath.parse(path)).isInstanceOfSatisfying(TableServiceException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROPERTY_VALUE_TOO_LARGE));
    }
}
