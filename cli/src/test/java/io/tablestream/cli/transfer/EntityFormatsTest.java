package io.tablestream.cli.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file formats: a page to JSON Lines, JSON Lines to typed CSV and back, CSV's quoting. */
class EntityFormatsTest {
    @TempDir
    Path dir;

    @Test
    void aPageBecomesOneLinePerEntityWithoutControlInformation() {
        String page = "{\"odata.metadata\":\"http://x/$metadata#T\",\"value\":["
                + "{\"odata.etag\":\"W/\\\"1\\\"\",\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"N\":1.5e3,\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"9\"},"
                + "{\"PartitionKey\":\"p\",\"RowKey\":\"2\"}]}";

        EntityLines.Lines lines = EntityLines.fromPage(page.getBytes(StandardCharsets.UTF_8));

        assertThat(lines.entities()).isEqualTo(2);
        assertThat(new String(lines.bytes(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"N\":1500.0,\"Big@odata.type\":\"Edm.Int64\",\"Big\":\"9\"}\n"
                        + "{\"PartitionKey\":\"p\",\"RowKey\":\"2\"}\n");
        assertThat(Counter.entitiesIn(page.getBytes(StandardCharsets.UTF_8))).isEqualTo(2);
    }

    @Test
    void keysAreFoundAnywhereInALineAndRequired() {
        byte[] line = "{\"A\":{\"nested\":1},\"RowKey\":\"r\",\"PartitionKey\":\"p\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(EntityLines.keysOf(line, 0, line.length)).isEqualTo(new EntityLines.EntityKey("p", "r"));
        byte[] keyless = "{\"PartitionKey\":\"p\"}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> EntityLines.keysOf(keyless, 0, keyless.length)).hasMessageContaining("RowKey");
    }

    @Test
    void jsonLinesBecomeTypedCsvAndCsvRowsBecomeTheSameTypedJson() throws Exception {
        Path lines = dir.resolve("in.jsonl");
        Files.writeString(lines, String.join("\n",
                "{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"Timestamp\":\"2024-01-01T00:00:00.0000000Z\",\"S\":\"a,\\\"b\\\"\\r\\nc\","
                        + "\"I\":-5,\"D@odata.type\":\"Edm.Double\",\"D\":\"NaN\",\"L@odata.type\":\"Edm.Int64\",\"L\":\"-9223372036854775808\"}",
                "{\"PartitionKey\":\"p\",\"RowKey\":\"2\",\"S\":\"\",\"B\":true,\"X@odata.type\":\"Edm.Binary\",\"X\":\"\"}",
                ""));
        Path csv = dir.resolve("out.csv");

        assertThat(CsvEntities.fromLines(lines, csv)).isEqualTo(2);

        assertThat(Files.readString(csv)).isEqualTo(
                "PartitionKey,RowKey,Timestamp,S,S@type,I,I@type,D,D@type,L,L@type,B,B@type,X,X@type\r\n"
                        + "p,1,2024-01-01T00:00:00.0000000Z,\"a,\"\"b\"\"\r\nc\",Edm.String,-5,Edm.Int32,NaN,Edm.Double,"
                        + "-9223372036854775808,Edm.Int64,,,,\r\n"
                        + "p,2,,,Edm.String,,,,,,,true,Edm.Boolean,,Edm.Binary\r\n");
        CsvEntities.RowReader rows = new CsvEntities.RowReader(new StringReader(Files.readString(csv)));
        assertThat(new String(rows.next(), StandardCharsets.UTF_8)).isEqualTo("{\"PartitionKey\":\"p\",\"RowKey\":\"1\","
                + "\"S\":\"a,\\\"b\\\"\\r\\nc\",\"I\":-5,\"D@odata.type\":\"Edm.Double\",\"D\":\"NaN\","
                + "\"L@odata.type\":\"Edm.Int64\",\"L\":\"-9223372036854775808\"}");
        assertThat(new String(rows.next(), StandardCharsets.UTF_8)).isEqualTo("{\"PartitionKey\":\"p\",\"RowKey\":\"2\","
                + "\"S\":\"\",\"B\":true,\"X@odata.type\":\"Edm.Binary\",\"X\":\"\"}");
        assertThat(rows.next()).isNull();
        assertThat(rows.rows()).isEqualTo(2);
    }

    @Test
    void aCsvValueThatIsNotItsTypeIsRefusedNamingTheRow() throws Exception {
        CsvEntities.RowReader rows = new CsvEntities.RowReader(new StringReader(
                "PartitionKey,RowKey,N,N@type\r\np,1,7,Edm.Int32\r\np,2,seven,Int32\r\n"));
        assertThat(new String(rows.next(), StandardCharsets.UTF_8)).contains("\"N\":7");
        assertThatThrownBy(rows::next).isInstanceOf(TransferException.class)
                .hasMessage("CSV row 2: N is 'seven', not an Edm.Int32 (For input string: \"seven\").");
        assertThatThrownBy(() -> new CsvEntities.RowReader(new StringReader("A,B\r\n")))
                .hasMessageContaining("PartitionKey and RowKey");
    }

    @Test
    void csvRecordsQuoteWhatNeedsQuotingAndReadBothLineEnds() throws Exception {
        java.io.StringWriter out = new java.io.StringWriter();
        CsvRecords.write(out, List.of("plain", "a,b", "say \"hi\"", "two\nlines", ""));
        assertThat(out.toString()).isEqualTo("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n");

        CsvRecords.RecordReader r = new CsvRecords.RecordReader(new StringReader(out + "x,y\ny,\"z\"\r\n"));
        assertThat(r.next()).containsExactly("plain", "a,b", "say \"hi\"", "two\nlines", "");
        assertThat(r.next()).containsExactly("x", "y");
        assertThat(r.next()).containsExactly("y", "z");
        assertThat(r.next()).isNull();
    }

    @Test
    void rangesSplitThePartitionKeysAndKeepTheFilter() {
        assertThat(TableScan.rangeFilters(null, List.of())).containsExactly((String) null);
        assertThat(TableScan.rangeFilters("Age gt 3", List.of("n", "f", "n"))).containsExactly(
                "(Age gt 3) and PartitionKey lt 'f'",
                "(Age gt 3) and PartitionKey ge 'f' and PartitionKey lt 'n'",
                "(Age gt 3) and PartitionKey ge 'n'");
        assertThat(TableScan.rangeFilters(null, List.of("o'k"))).containsExactly("PartitionKey lt 'o''k'",
                "PartitionKey ge 'o''k'");
    }

    @Test
    void progressShowsTheShareRateAndTimeLeft() {
        Progress p = new Progress("export T", () -> 0, () -> -1, Progress.Style.NONE, System.err);
        long start = System.nanoTime();
        String line = p.line(250_000, 1_000_000, start + 5_000_000_000L, false);
        assertThat(line).startsWith("export T  [######------------------]  25%  250,000/1,000,000").contains("ETA 0:15");
        assertThat(p.line(42, -1, start + 1_000_000_000L, true)).startsWith("export T  42  ").contains(" in 0:01");
        assertThat(Progress.duration(3725)).isEqualTo("1:02:05");
    }
}
