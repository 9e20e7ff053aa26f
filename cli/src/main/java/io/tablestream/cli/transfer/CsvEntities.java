package io.tablestream.cli.transfer;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tablestream.core.model.EdmType;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Entities as typed CSV, round-trippable: a header row, then one row per entity. The columns are
 * {@code PartitionKey}, {@code RowKey}, {@code Timestamp}, then for each property two: {@code Name}
 * (its value) and {@code Name@type} (its Edm type, e.g. {@code Edm.Int64}) — the layout Azure
 * Storage Explorer uses — so each row carries its own types and rows may differ in what they hold.
 * An empty type cell means the entity has no such property; a type with an empty value is an empty
 * value (an empty Edm.String). Values are written as in the service's JSON: Int64 and Double as
 * their decimal text (Double as Java prints it, exact when read back; {@code NaN}, {@code Infinity},
 * {@code -Infinity}), DateTime as ISO 8601 with seven fractional digits, Binary in base64, Guid
 * hyphenated. Timestamp is informative: the service sets it again on import.
 */
public final class CsvEntities {
    static final String TYPE_SUFFIX = "@type";
    private static final List<String> KEYS = List.of("PartitionKey", "RowKey", "Timestamp");

    private CsvEntities() {
    }

    /** Writes the entities of a JSON Lines file as CSV (two passes: the columns first, then the rows). */
    public static long fromLines(Path lines, Path csv) throws IOException {
        Set<String> properties = new LinkedHashSet<>();
        try (BufferedReader in = Files.newBufferedReader(lines, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                for (String name : parse(line).keySet()) {
                    if (!KEYS.contains(name)) {
                        properties.add(name);
                    }
                }
            }
        }
        List<String> header = new ArrayList<>(KEYS);
        for (String p : properties) {
            header.add(p);
            header.add(p + TYPE_SUFFIX);
        }
        long rows = 0;
        try (BufferedReader in = Files.newBufferedReader(lines, StandardCharsets.UTF_8);
             Writer out = new BufferedWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8), 1 << 20)) {
            CsvRecords.write(out, header);
            String line;
            List<String> row = new ArrayList<>(header.size());
            while ((line = in.readLine()) != null) {
                Map<String, Typed> entity = parse(line);
                row.clear();
                for (String key : KEYS) {
                    Typed v = entity.get(key);
                    row.add(v == null ? "" : v.text());
                }
                for (String p : properties) {
                    Typed v = entity.get(p);
                    row.add(v == null ? "" : v.text());
                    row.add(v == null ? "" : v.type().odataName());
                }
                CsvRecords.write(out, row);
                rows++;
            }
        }
        return rows;
    }

    /** A value as CSV holds it: its text and its type. */
    record Typed(String text, EdmType type) {
    }

    /** The members of one entity line, typed as the service would type them. */
    static Map<String, Typed> parse(String line) throws IOException {
        Map<String, String> annotations = new HashMap<>();
        Map<String, Typed> values = new LinkedHashMap<>();
        try (JsonParser p = EntityLines.JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object: " + abbreviate(line));
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.endsWith("@odata.type")) {
                    annotations.put(name.substring(0, name.length() - "@odata.type".length()), p.getText());
                    continue;
                }
                EdmType inferred = switch (t) {
                    case VALUE_STRING -> EdmType.STRING;
                    case VALUE_NUMBER_INT -> EdmType.INT32;
                    case VALUE_NUMBER_FLOAT -> EdmType.DOUBLE;
                    case VALUE_TRUE, VALUE_FALSE -> EdmType.BOOLEAN;
                    case VALUE_NULL -> null;
                    default -> throw new IOException("property " + name + " is not a JSON scalar: " + abbreviate(line));
                };
                if (inferred != null) {
                    values.put(name, new Typed(p.getText(), inferred));
                }
            }
        }
        annotations.forEach((name, type) -> {
            Typed v = values.get(name);
            EdmType edm = EdmType.fromODataName(type);
            if (v != null && edm != null) {
                values.put(name, new Typed(v.text(), edm));
            }
        });
        if (values.containsKey("Timestamp")) {
            values.put("Timestamp", new Typed(values.get("Timestamp").text(), EdmType.DATE_TIME));
        }
        return values;
    }

    /** Reads CSV rows as entity JSON objects (what {@link EntityLines} holds), with the header's columns. */
    public static final class RowReader {
        private final CsvRecords.RecordReader records;
        private final List<String> header;
        /** For each property: the column of its value and of its type. */
        private final Map<String, int[]> columns = new LinkedHashMap<>();
        private final int partitionKey;
        private final int rowKey;

        public RowReader(java.io.Reader in) throws IOException {
            this.records = new CsvRecords.RecordReader(in);
            List<String> h = records.next();
            if (h == null) {
                throw new TransferException("The CSV file is empty: it needs a header row.");
            }
            this.header = h;
            this.partitionKey = header.indexOf("PartitionKey");
            this.rowKey = header.indexOf("RowKey");
            if (partitionKey < 0 || rowKey < 0) {
                throw new TransferException("The CSV header needs the columns PartitionKey and RowKey; it has "
                        + header);
            }
            for (int i = 0; i < header.size(); i++) {
                String name = header.get(i);
                if (KEYS.contains(name) || name.endsWith(TYPE_SUFFIX)) {
                    continue;
                }
                columns.put(name, new int[] {i, header.indexOf(name + TYPE_SUFFIX)});
            }
        }

        /** Rows read so far (the header not counted). */
        public long rows() {
            return records.records() - 1;
        }

        /** The next row as an entity's JSON, or null at the end; {@link TransferException} naming the row when it is not one. */
        public byte[] next() throws IOException {
            List<String> row = records.next();
            while (row != null && row.size() == 1 && row.get(0).isEmpty()) {
                row = records.next(); // a blank line
            }
            if (row == null) {
                return null;
            }
            long number = rows();
            if (row.size() != header.size()) {
                throw new TransferException("CSV row " + number + " has " + row.size() + " fields; the header has "
                        + header.size() + ".");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(256);
            try (JsonGenerator g = EntityLines.JSON.createGenerator(out)) {
                g.writeStartObject();
                g.writeStringField("PartitionKey", row.get(partitionKey));
                g.writeStringField("RowKey", row.get(rowKey));
                for (Map.Entry<String, int[]> c : columns.entrySet()) {
                    String value = row.get(c.getValue()[0]);
                    String type = c.getValue()[1] < 0 ? "Edm.String" : row.get(c.getValue()[1]);
                    if (type.isEmpty()) {
                        continue;
                    }
                    writeProperty(g, c.getKey(), value, type, number);
                }
                g.writeEndObject();
            }
            return out.toByteArray();
        }
    }

    private static void writeProperty(JsonGenerator g, String name, String value, String typeName, long row)
            throws IOException {
        EdmType type = EdmType.fromODataName(typeName.startsWith("Edm.") ? typeName : "Edm." + typeName);
        if (type == null) {
            throw new TransferException("CSV row " + row + ": " + name + TYPE_SUFFIX + " is '" + typeName
                    + "', not an Edm type (" + Arrays.stream(EdmType.values()).map(EdmType::odataName).toList() + ").");
        }
        try {
            switch (type) {
                case STRING -> g.writeStringField(name, value);
                case INT32 -> g.writeNumberField(name, Integer.parseInt(value.strip()));
                case BOOLEAN -> g.writeBooleanField(name, switch (value.strip().toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw new NumberFormatException("not true or false");
                });
                case INT64 -> {
                    annotate(g, name, type);
                    g.writeStringField(name, Long.toString(Long.parseLong(value.strip())));
                }
                case DOUBLE -> {
                    annotate(g, name, type);
                    String v = value.strip();
                    if (v.equals("NaN") || v.equals("Infinity") || v.equals("-Infinity")) {
                        g.writeStringField(name, v);
                    } else {
                        double d = Double.parseDouble(v);
                        if (!Double.isFinite(d)) {
                            throw new NumberFormatException("out of range");
                        }
                        g.writeNumberField(name, d);
                    }
                }
                default -> {
                    annotate(g, name, type);
                    g.writeStringField(name, value.strip());
                }
            }
        } catch (NumberFormatException e) {
            throw new TransferException("CSV row " + row + ": " + name + " is '" + abbreviate(value) + "', not an "
                    + type.odataName() + " (" + e.getMessage() + ").");
        }
    }

    private static void annotate(JsonGenerator g, String name, EdmType type) throws IOException {
        g.writeStringField(name + "@odata.type", type.odataName());
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
