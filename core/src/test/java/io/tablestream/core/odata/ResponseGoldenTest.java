package io.tablestream.core.odata;

import io.tablestream.core.filter.Select;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.model.EdmBinary;
import io.tablestream.core.model.EdmBoolean;
import io.tablestream.core.model.EdmDateTime;
import io.tablestream.core.model.EdmDouble;
import io.tablestream.core.model.EdmGuid;
import io.tablestream.core.model.EdmInt32;
import io.tablestream.core.model.EdmInt64;
import io.tablestream.core.model.EdmString;
import io.tablestream.core.model.EdmValue;
import io.tablestream.core.model.Entity;
import io.tablestream.core.model.TableName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Exact bytes of every response shape, for a fixed entity. */
class ResponseGoldenTest {
    private static final ODataContext SERVICE =
            ODataContext.forService("http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1");
    private static final ODataContext CUSTOMERS = SERVICE.withTable(TableName.of("Customers"));
    private static final Entity ENTITY = fixedEntity();

    private static Entity fixedEntity() {
        Map<String, EdmValue> p = new LinkedHashMap<>();
        p.put("Address", EdmString.of("Mountain View"));
        p.put("Age", EdmInt32.of(23));
        p.put("AmountDue", EdmDouble.of(200.23));
        p.put("CustomerCode", EdmGuid.of(UUID.fromString("C9DA6455-213D-42C9-9A79-3E9149A57833")));
        p.put("CustomerSince", EdmDateTime.of(Instant.parse("2008-07-10T00:00:00Z")));
        p.put("IsActive", EdmBoolean.TRUE);
        p.put("NumberOfOrders", EdmInt64.of(255));
        p.put("Ratio", EdmDouble.of(2.0));
        p.put("Missing", EdmDouble.of(Double.NaN));
        p.put("Photo", EdmBinary.of(new byte[] {1, 2, 3, 4}));
        return Entity.of("mypartitionkey", "myrowkey", p)
                .withVersion(EdmDateTime.of(Instant.parse("2024-05-01T12:00:00.1234567Z")));
    }

    private static final String ETAG = "\"odata.etag\":\"W/\\\"datetime'2024-05-01T12%3A00%3A00.1234567Z'\\\"\"";
    private static final String KEYS_AND_TIMESTAMP =
            "\"PartitionKey\":\"mypartitionkey\",\"RowKey\":\"myrowkey\",\"Timestamp\":\"2024-05-01T12:00:00.1234567Z\"";
    private static final String ANNOTATED_PROPERTIES = "\"Address\":\"Mountain View\",\"Age\":23,\"AmountDue\":200.23,"
            + "\"CustomerCode@odata.type\":\"Edm.Guid\",\"CustomerCode\":\"c9da6455-213d-42c9-9a79-3e9149a57833\","
            + "\"CustomerSince@odata.type\":\"Edm.DateTime\",\"CustomerSince\":\"2008-07-10T00:00:00.0000000Z\","
            + "\"IsActive\":true,"
            + "\"NumberOfOrders@odata.type\":\"Edm.Int64\",\"NumberOfOrders\":\"255\","
            + "\"Ratio@odata.type\":\"Edm.Double\",\"Ratio\":2.0,"
            + "\"Missing@odata.type\":\"Edm.Double\",\"Missing\":\"NaN\","
            + "\"Photo@odata.type\":\"Edm.Binary\",\"Photo\":\"AQIDBA==\"";
    private static final String PLAIN_PROPERTIES = "\"Address\":\"Mountain View\",\"Age\":23,\"AmountDue\":200.23,"
            + "\"CustomerCode\":\"c9da6455-213d-42c9-9a79-3e9149a57833\","
            + "\"CustomerSince\":\"2008-07-10T00:00:00.0000000Z\",\"IsActive\":true,\"NumberOfOrders\":\"255\","
            + "\"Ratio\":2.0,\"Missing\":\"NaN\",\"Photo\":\"AQIDBA==\"";
    private static final String FULL_CONTROL = "\"odata.type\":\"devstoreaccount1.Customers\","
            + "\"odata.id\":\"http://127.0.0.1:10002/devstoreaccount1/Customers(PartitionKey='mypartitionkey',RowKey='myrowkey')\","
            + ETAG + ","
            + "\"odata.editLink\":\"Customers(PartitionKey='mypartitionkey',RowKey='myrowkey')\"";

    @Test
    void writesAnEntityAtMinimalMetadata() throws IOException {
        assertThat(entity(MetadataLevel.MINIMAL, Select.all())).isEqualTo("{"
                + "\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Customers/@Element\","
                + ETAG + "," + KEYS_AND_TIMESTAMP + "," + ANNOTATED_PROPERTIES + "}");
    }

    @Test
    void writesAnEntityAtFullMetadata() throws IOException {
        assertThat(entity(MetadataLevel.FULL, Select.all())).isEqualTo("{"
                + "\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Customers/@Element\","
                + FULL_CONTROL + ","
                + "\"PartitionKey\":\"mypartitionkey\",\"RowKey\":\"myrowkey\","
                + "\"Timestamp@odata.type\":\"Edm.DateTime\",\"Timestamp\":\"2024-05-01T12:00:00.1234567Z\","
                + ANNOTATED_PROPERTIES + "}");
    }

    @Test
    void writesAnEntityAtNoMetadata() throws IOException {
        assertThat(entity(MetadataLevel.NO, Select.all())).isEqualTo("{" + KEYS_AND_TIMESTAMP + "," + PLAIN_PROPERTIES + "}");
    }

    @Test
    void writesOnlySelectedPropertiesAndNullForSelectedOnesTheEntityLacks() throws IOException {
        assertThat(entity(MetadataLevel.MINIMAL, Select.parse("NumberOfOrders,Nope,RowKey,Age")))
                .isEqualTo("{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Customers/@Element"
                        + "&$select=NumberOfOrders,Nope,RowKey,Age\","
                        + ETAG + ",\"RowKey\":\"myrowkey\",\"Age\":23,"
                        + "\"NumberOfOrders@odata.type\":\"Edm.Int64\",\"NumberOfOrders\":\"255\",\"Nope\":null}");
    }

    @Test
    void writesAnEntityNotYetStoredWithoutTimestampOrEtag() throws IOException {
        Entity fresh = Entity.of("p", "r", Map.of("A", EdmInt32.of(1)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityJsonWriter.writeEntity(out, CUSTOMERS, fresh, MetadataLevel.MINIMAL);
        assertThat(utf8(out)).isEqualTo("{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Customers/@Element\","
                + "\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"A\":1}");
    }

    @Test
    void writesAFeedAtEachLevel() throws IOException {
        assertThat(feed(MetadataLevel.MINIMAL, Select.all())).isEqualTo("{"
                + "\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Customers\",\"value\":["
                + "{" + ETAG + "," + KEYS_AND_TIMESTAMP + "," + ANNOTATED_PROPERTIES + "},"
                + "{" + ETAG + "," + KEYS_AND_TIMESTAMP + "," + ANNOTATED_PROPERTIES + "}]}");
        assertThat(feed(MetadataLevel.FULL, Select.all())).isEqualTo("{"
                + "\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Customers\",\"value\":["
                + "{" + FULL_CONTROL + ",\"PartitionKey\":\"mypartitionkey\",\"RowKey\":\"myrowkey\","
                + "\"Timestamp@odata.type\":\"Edm.DateTime\",\"Timestamp\":\"2024-05-01T12:00:00.1234567Z\","
                + ANNOTATED_PROPERTIES + "},"
                + "{" + FULL_CONTROL + ",\"PartitionKey\":\"mypartitionkey\",\"RowKey\":\"myrowkey\","
                + "\"Timestamp@odata.type\":\"Edm.DateTime\",\"Timestamp\":\"2024-05-01T12:00:00.1234567Z\","
                + ANNOTATED_PROPERTIES + "}]}");
        assertThat(feed(MetadataLevel.NO, Select.all())).isEqualTo("{\"value\":["
                + "{" + KEYS_AND_TIMESTAMP + "," + PLAIN_PROPERTIES + "},"
                + "{" + KEYS_AND_TIMESTAMP + "," + PLAIN_PROPERTIES + "}]}");
    }

    @Test
    void writesAProjectedFeed() throws IOException {
        assertThat(feed(MetadataLevel.MINIMAL, Select.parse("Age"))).isEqualTo("{"
                + "\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Customers&$select=Age\",\"value\":["
                + "{" + ETAG + ",\"Age\":23},{" + ETAG + ",\"Age\":23}]}");
    }

    @Test
    void pushesWhatIsWrittenToTheStreamOnFlushBeforeTheFeedEnds() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityFeedWriter feed = EntityFeedWriter.begin(out, CUSTOMERS, MetadataLevel.NO, Select.parse("Age"));
        feed.write(ENTITY);
        feed.flush();
        assertThat(utf8(out)).isEqualTo("{\"value\":[{\"Age\":23}");
        feed.finish();
        assertThat(utf8(out)).isEqualTo("{\"value\":[{\"Age\":23}]}");
    }

    @Test
    void quotesAndEncodesKeysInFullMetadataLinks() throws IOException {
        Entity odd = Entity.of("it's 100%", "é/x", Map.of()).withVersion(EdmDateTime.ofEpochTicks(0));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityJsonWriter.writeEntity(out, CUSTOMERS, odd, MetadataLevel.FULL);
        assertThat(utf8(out))
                .contains("\"odata.id\":\"http://127.0.0.1:10002/devstoreaccount1/Customers(PartitionKey='it''s%20100%25',RowKey='%C3%A9%2Fx')\"")
                .contains("\"odata.editLink\":\"Customers(PartitionKey='it''s%20100%25',RowKey='%C3%A9%2Fx')\"")
                .contains("\"PartitionKey\":\"it's 100%\",\"RowKey\":\"é/x\"");
    }

    @Test
    void writesASingleTableAtEachLevel() throws IOException {
        assertThat(table(MetadataLevel.MINIMAL)).isEqualTo(
                "{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element\",\"TableName\":\"mytable\"}");
        assertThat(table(MetadataLevel.FULL)).isEqualTo(
                "{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element\","
                        + "\"odata.type\":\"devstoreaccount1.Tables\","
                        + "\"odata.id\":\"http://127.0.0.1:10002/devstoreaccount1/Tables('mytable')\","
                        + "\"odata.editLink\":\"Tables('mytable')\",\"TableName\":\"mytable\"}");
        assertThat(table(MetadataLevel.NO)).isEqualTo("{\"TableName\":\"mytable\"}");
    }

    @Test
    void writesATablesFeedAtEachLevel() throws IOException {
        assertThat(tables(MetadataLevel.MINIMAL)).isEqualTo(
                "{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables\","
                        + "\"value\":[{\"TableName\":\"mytable\"},{\"TableName\":\"Other1\"}]}");
        assertThat(tables(MetadataLevel.FULL)).isEqualTo(
                "{\"odata.metadata\":\"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables\",\"value\":["
                        + "{\"odata.type\":\"devstoreaccount1.Tables\","
                        + "\"odata.id\":\"http://127.0.0.1:10002/devstoreaccount1/Tables('mytable')\","
                        + "\"odata.editLink\":\"Tables('mytable')\",\"TableName\":\"mytable\"},"
                        + "{\"odata.type\":\"devstoreaccount1.Tables\","
                        + "\"odata.id\":\"http://127.0.0.1:10002/devstoreaccount1/Tables('Other1')\","
                        + "\"odata.editLink\":\"Tables('Other1')\",\"TableName\":\"Other1\"}]}");
        assertThat(tables(MetadataLevel.NO)).isEqualTo("{\"value\":[{\"TableName\":\"mytable\"},{\"TableName\":\"Other1\"}]}");
    }

    @Test
    void writesTheErrorBodyTheServiceWrites() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ErrorJsonWriter.write(out, TableServiceException.of(ErrorCode.ENTITY_NOT_FOUND, "The specified entity does not exist."),
                "102a2b55-eb35-4254-9daf-854db78a47bd", Instant.parse("2014-06-04T16:18:20.4307735Z"));
        assertThat(utf8(out)).isEqualTo("{\"odata.error\":{\"code\":\"EntityNotFound\",\"message\":{\"lang\":\"en-US\","
                + "\"value\":\"The specified entity does not exist.\\nRequestId:102a2b55-eb35-4254-9daf-854db78a47bd"
                + "\\nTime:2014-06-04T16:18:20.4307735Z\"}}}");
    }

    @Test
    void prefixesABatchOperationErrorWithItsIndex() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ErrorJsonWriter.write(out, TableServiceException.of(ErrorCode.ENTITY_ALREADY_EXISTS, "The specified entity already exists.")
                .atIndex(3), "rid", Instant.parse("2024-01-02T03:04:05Z"));
        String json = utf8(out);
        assertThat(json).isEqualTo("{\"odata.error\":{\"code\":\"EntityAlreadyExists\",\"message\":{\"lang\":\"en-US\","
                + "\"value\":\"3:The specified entity already exists.\\nRequestId:rid\\nTime:2024-01-02T03:04:05.0000000Z\"}}}");
        // What the Java SDK does to find the failed operation: the integer before the first ':'.
        String value = ErrorJsonWriter.messageValue("The specified entity already exists.", OptionalInt.of(3), "rid",
                Instant.parse("2024-01-02T03:04:05Z"));
        assertThat(Integer.parseInt(value.substring(0, value.indexOf(':')))).isEqualTo(3);
    }

    @Test
    void fallsBackToTheDefaultMessageForAnErrorWithout() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ErrorJsonWriter.write(out, ErrorCode.TABLE_NOT_FOUND, null, OptionalInt.empty(), "rid", Instant.EPOCH);
        assertThat(utf8(out)).contains("\"value\":\"" + ErrorCode.TABLE_NOT_FOUND.defaultMessage() + "\\nRequestId:rid\\nTime:1970-01-01T00:00:00.0000000Z\"");
    }

    private static String entity(MetadataLevel level, Select projection) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityJsonWriter.writeEntity(out, CUSTOMERS, ENTITY, level, projection);
        return utf8(out);
    }

    private static String feed(MetadataLevel level, Select projection) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EntityFeedWriter feed = EntityFeedWriter.begin(out, CUSTOMERS, level, projection);
        feed.write(ENTITY);
        feed.write(ENTITY);
        feed.finish();
        return utf8(out);
    }

    private static String table(MetadataLevel level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TableJsonWriter.writeTable(out, SERVICE, TableName.of("mytable"), level);
        return utf8(out);
    }

    private static String tables(MetadataLevel level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TableFeedWriter feed = TableFeedWriter.begin(out, SERVICE, level);
        feed.write(TableName.of("mytable"));
        feed.write(TableName.of("Other1"));
        feed.finish();
        return utf8(out);
    }

    private static String utf8(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8);
    }
}
