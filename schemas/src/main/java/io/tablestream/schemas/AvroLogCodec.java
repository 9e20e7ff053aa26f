package io.tablestream.schemas;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * A {@link LogCodec} over Avro's single-object encoding: every record starts with the 2-byte
 * marker {@code C3 01} and the 8-byte CRC-64-AVRO fingerprint of the schema that wrote it. The
 * decoder knows the current schema and every earlier one (listed in
 * {@code io/tablestream/schemas/history/index.txt}), and resolves old records to the current
 * schema, so the log evolves without a schema registry: add fields with defaults, keep the old
 * schema in the history.
 *
 * @param <A> the generated Avro class
 * @param <T> the domain record
 */
public final class AvroLogCodec<A extends SpecificRecord, T> implements LogCodec<T> {
    private static final String HISTORY = "/io/tablestream/schemas/history/";
    /** The marker {@code C3 01} and the 8-byte schema fingerprint. */
    private static final int HEADER_LENGTH = 10;
    /** Our generated classes, which Avro's class-security check must let it instantiate. */
    private static final Set<Class<?>> TRUSTED = ConcurrentHashMap.newKeySet();

    static {
        ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(previous, TRUSTED::contains));
    }

    private final BinaryMessageEncoder<A> encoder;
    private final BinaryMessageDecoder<A> decoder;
    private final Function<T, A> toAvro;
    private final Function<A, T> fromAvro;
    private final String kind;
    /** CRC-64-AVRO fingerprints of the current schema and every earlier one this codec reads. */
    private final Set<Long> fingerprints;

    private AvroLogCodec(Schema schema, List<Schema> history, Function<T, A> toAvro, Function<A, T> fromAvro) {
        trust(schema);
        this.encoder = new BinaryMessageEncoder<>(SpecificData.getForSchema(schema), schema);
        this.decoder = new BinaryMessageDecoder<>(SpecificData.getForSchema(schema), schema);
        history.forEach(decoder::addSchema);
        Set<Long> known = new java.util.HashSet<>();
        known.add(SchemaNormalization.parsingFingerprint64(schema));
        history.forEach(h -> known.add(SchemaNormalization.parsingFingerprint64(h)));
        this.fingerprints = Set.copyOf(known);
        this.toAvro = Objects.requireNonNull(toAvro);
        this.fromAvro = Objects.requireNonNull(fromAvro);
        this.kind = schema.getName();
    }

    /** A codec for {@code schema} that also reads the earlier versions listed in the history index. */
    public static <A extends SpecificRecord, T> AvroLogCodec<A, T> of(Schema schema, Function<T, A> toAvro,
                                                                      Function<A, T> fromAvro) {
        return new AvroLogCodec<>(schema, historyOf(schema.getName()), toAvro, fromAvro);
    }

    /** A codec that reads the given earlier schemas in addition to the history (for tests and tools). */
    public static <A extends SpecificRecord, T> AvroLogCodec<A, T> withHistory(Schema schema, List<Schema> earlier,
                                                                               Function<T, A> toAvro,
                                                                               Function<A, T> fromAvro) {
        List<Schema> all = new ArrayList<>(historyOf(schema.getName()));
        all.addAll(earlier);
        return new AvroLogCodec<>(schema, all, toAvro, fromAvro);
    }

    @Override
    public byte[] encode(T value) {
        try {
            return encoder.encode(toAvro.apply(value)).array();
        } catch (IOException e) {
            throw new UncheckedIOException("encoding " + kind, e);
        }
    }

    @Override
    public T decode(byte[] bytes) {
        if (bytes == null) {
            throw new LogFormatException("a " + kind + " record has no value", null);
        }
        A avro;
        try {
            avro = decoder.decode(bytes);
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException("not a readable " + kind + " record: " + e.getMessage(), e);
        }
        try {
            return fromAvro.apply(avro);
        } catch (RuntimeException e) {
            throw new LogFormatException("invalid " + kind + " record: " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code bytes} begin with the single-object header of a schema this codec reads (the
     * body is not checked): tells records of different kinds on one topic apart.
     */
    public boolean reads(byte[] bytes) {
        if (bytes == null || bytes.length < HEADER_LENGTH || bytes[0] != (byte) 0xC3 || bytes[1] != (byte) 0x01) {
            return false;
        }
        long fingerprint = 0;
        for (int i = HEADER_LENGTH - 1; i >= 2; i--) { // little-endian
            fingerprint = (fingerprint << 8) | (bytes[i] & 0xFFL);
        }
        return fingerprints.contains(fingerprint);
    }

    /** Lets Avro instantiate the generated classes of {@code schema} and every named type inside it. */
    private static void trust(Schema schema) {
        switch (schema.getType()) {
            case RECORD -> {
                if (addTrusted(schema)) {
                    schema.getFields().forEach(f -> trust(f.schema()));
                }
            }
            case ENUM, FIXED -> addTrusted(schema);
            case UNION -> schema.getTypes().forEach(AvroLogCodec::trust);
            case ARRAY -> trust(schema.getElementType());
            case MAP -> trust(schema.getValueType());
            default -> { }
        }
    }

    private static boolean addTrusted(Schema named) {
        try {
            return TRUSTED.add(Class.forName(named.getFullName(), false, AvroLogCodec.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no generated class for schema " + named.getFullName(), e);
        }
    }

    /** Earlier schemas of a record, from the history index (one file name per line). */
    static List<Schema> historyOf(String recordName) {
        List<Schema> schemas = new ArrayList<>();
        try (InputStream index = AvroLogCodec.class.getResourceAsStream(HISTORY + "index.txt")) {
            if (index == null) {
                return schemas;
            }
            for (String line : new String(index.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String file = line.strip();
                if (file.isEmpty() || file.startsWith("#") || !file.startsWith(recordName + "-")) {
                    continue;
                }
                try (InputStream in = AvroLogCodec.class.getResourceAsStream(HISTORY + file)) {
                    if (in == null) {
                        throw new IllegalStateException("schema history lists a missing file: " + file);
                    }
                    schemas.add(new Schema.Parser().parse(in));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the schema history", e);
        }
        return schemas;
    }
}
