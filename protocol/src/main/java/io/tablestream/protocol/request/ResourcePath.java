package io.tablestream.protocol.request;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import io.tablestream.core.rules.Keys;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What a request path addresses, below the account (path-style, as the storage emulator):
 * {@code /{account}/} the service, {@code Tables} the table collection, {@code Tables('t')} one
 * table, {@code $batch}, {@code t} or {@code t()} a table's entities, and
 * {@code t(PartitionKey='p',RowKey='r')} one entity. The account segment may name the account's
 * secondary location ({@code {account}-secondary}). Key values are percent-decoded and
 * OData-unquoted ({@code ''} is a quote), then held to the key rules: every read and write of an
 * entity, and every operation of a batch, gets its keys from here, so a key no entity can have is
 * refused once, the same way for all of them (as a write of that key in a body is).
 *
 * <p>One type, over 400 lines: the sealed set of resources and the one parser that yields them, so
 * that a new resource is a record and a branch of the parser in one place, and every key of every
 * entity path is decoded and checked by the same code.
 */
public sealed interface ResourcePath {

    /** The service itself: {@code /{account}/} (service properties, stats, preflight). */
    record Service() implements ResourcePath {
    }

    /** {@code Tables} or {@code Tables()}. */
    record TableCollection() implements ResourcePath {
    }

    /** {@code Tables('name')}: the name as written, not yet validated. */
    record TableItem(String name) implements ResourcePath {
    }

    /** {@code $batch}. */
    record Batch() implements ResourcePath {
    }

    /** {@code $transactions} (an extension): where cross-partition transactions are submitted. */
    record TransactionCollection() implements ResourcePath {
    }

    /** {@code $transactions('id')} (an extension): one cross-partition transaction's status. */
    record TransactionItem(String transactionId) implements ResourcePath {
    }

    /** {@code $jobs} (an extension): the account's recent jobs. */
    record JobCollection() implements ResourcePath {
    }

    /** {@code $jobs/<id>} (an extension): one job's status. */
    record JobItem(String jobId) implements ResourcePath {
    }

    /**
     * {@code name()/$restore} or {@code name/$restore}: where a table is restored into a new one (a
     * Tablestream extension).
     */
    record TableRestore(String table) implements ResourcePath {
        /** The path segment after the table. */
        public static final String SEGMENT = "$restore";
    }

    /** {@code name} or {@code name()}: a table's entities (query, insert, ACL). */
    record EntityCollection(String table) implements ResourcePath {
    }

    /**
     * {@code name()/$count} or {@code name/$count}: the number of a table's entities that match a
     * {@code $filter} (OData's {@code $count} segment; a Tablestream extension).
     */
    record EntityCount(String table) implements ResourcePath {
        /** The path segment after the table. */
        public static final String SEGMENT = "$count";
    }

    /**
     * {@code name()/$changes} or {@code name/$changes}: the table's change feed from a cursor (a
     * Tablestream extension).
     */
    record EntityChanges(String table) implements ResourcePath {
        /** The path segment after the table. */
        public static final String SEGMENT = "$changes";
    }

    /**
     * {@code name()/$bulk} or {@code name/$bulk}: where a table's entities are upserted in bulk (a
     * Tablestream extension).
     */
    record EntityBulk(String table) implements ResourcePath {
        /** The path segment after the table. */
        public static final String SEGMENT = "$bulk";
    }

    /**
     * {@code name(PartitionKey='p',RowKey='r')/$history}: every kept version of one entity (a
     * Tablestream extension), keys that {@link Keys} accepts.
     */
    record EntityHistory(String table, String partitionKey, String rowKey) implements ResourcePath {
        /** The path segment after the entity. */
        public static final String SEGMENT = "$history";
    }

    /**
     * {@code name(PartitionKey='p')/$partition}: every entity of one PartitionKey, as one resource
     * (a Tablestream extension: Delete Partition). An Azure request never has this form: an entity
     * is always addressed by both keys, and no Azure path has a segment below an entity.
     */
    record EntityPartition(String table, String partitionKey) implements ResourcePath {
        /** The path segment after the PartitionKey. */
        public static final String SEGMENT = "$partition";

        public EntityPartition {
            Keys.validatePartitionKey(partitionKey);
        }
    }

    /** {@code name(PartitionKey='p',RowKey='r')}: keys that {@link Keys} accepts. */
    record EntityItem(String table, String partitionKey, String rowKey) implements ResourcePath {
        /** @throws TableServiceException the key rules' error (e.g. OutOfRangeInput) for a key no entity can have */
        public EntityItem {
            Keys.validatePartitionKey(partitionKey);
            Keys.validateRowKey(rowKey);
        }
    }

    /**
     * An account and what the rest of the path addresses.
     *
     * @param account the account, without the {@value #SECONDARY_SUFFIX} suffix of its secondary location
     * @param secondary whether the path names the account's secondary location ({@code /<account>-secondary/...}),
     *     the read-only alias through which the storage emulators serve read access and Get Service Stats
     */
    record Target(String account, boolean secondary, ResourcePath resource) {
    }

    /**
     * The suffix of an account's secondary location. Account names are lower-case letters and
     * digits only, so a name with this suffix can only be the alias.
     */
    String SECONDARY_SUFFIX = "-secondary";

    /** The account a first path segment names: {@code name} for {@code name} and for {@code name-secondary}. */
    static String primaryAccount(String account) {
        return isSecondary(account) ? account.substring(0, account.length() - SECONDARY_SUFFIX.length()) : account;
    }

    /** Whether a first path segment names an account's secondary location. */
    static boolean isSecondary(String account) {
        return account.length() > SECONDARY_SUFFIX.length() && account.endsWith(SECONDARY_SUFFIX);
    }

    /**
     * Parses a raw (still percent-encoded) request path.
     *
     * @throws TableServiceException InvalidUri for a path that addresses nothing the service has
     */
    static Target parse(String rawPath) {
        if (rawPath == null || !rawPath.startsWith("/")) {
            throw invalid("The request URI must be a path starting with '/'.");
        }
        int slash = rawPath.indexOf('/', 1);
        String account = decode(slash < 0 ? rawPath.substring(1) : rawPath.substring(1, slash));
        if (account.isEmpty()) {
            throw TableServiceException.of(ErrorCode.INVALID_URI, "The request URI names no account.");
        }
        String rawRest = slash < 0 ? "" : rawPath.substring(slash + 1);
        String primary = primaryAccount(account);
        if (isSecondary(account) && rawRest.startsWith(primary + "/")) {
            // The Python SDK puts its secondary host (host/<account>-secondary) in front of the
            // primary's path (/<account>/...): /<account>-secondary/<account>/... is the same resource
            // as /<account>-secondary/..., and otherwise no resource (nothing lies below a table).
            rawRest = rawRest.substring(primary.length() + 1);
        }
        if (rawRest.endsWith("/")) {
            rawRest = rawRest.substring(0, rawRest.length() - 1);
        }
        // The path's structure is its literal slashes; an encoded one (%2F) is data, e.g. inside a key.
        int below = rawRest.indexOf('/');
        if (below >= 0) {
            return new Target(primary, isSecondary(account), parseBelow(decode(rawRest.substring(0, below)),
                    rawRest.substring(below + 1)));
        }
        return new Target(primary, isSecondary(account), parseResource(decode(rawRest)));
    }

    /** The extension's collection of cross-partition transactions (no table name starts with '$'). */
    static final String TRANSACTIONS = "$transactions";
    /** The extension's collection of jobs (no table name starts with '$'). */
    static final String JOBS = "$jobs";

    /**
     * A segment below a resource: {@code $count}, {@code $changes}, {@code $bulk} or {@code $restore}
     * below a table's entities, {@code $history} below an entity, a job's id below {@code $jobs}.
     */
    private static ResourcePath parseBelow(String resource, String rawSegment) {
        String segment = decode(rawSegment);
        if (resource.equals(JOBS)) {
            if (segment.isEmpty() || rawSegment.indexOf('/') >= 0) {
                throw invalid("A job is addressed as $jobs/<id>.");
            }
            return new JobItem(segment);
        }
        if (segment.equals(EntityPartition.SEGMENT)) {
            return parsePartition(resource);
        }
        ResourcePath above = parseResource(resource);
        if (segment.equals(EntityCount.SEGMENT) && above instanceof EntityCollection table) {
            return new EntityCount(table.table());
        }
        if (segment.equals(EntityChanges.SEGMENT) && above instanceof EntityCollection table) {
            return new EntityChanges(table.table());
        }
        if (segment.equals(EntityBulk.SEGMENT) && above instanceof EntityCollection table) {
            return new EntityBulk(table.table());
        }
        if (segment.equals(TableRestore.SEGMENT) && above instanceof EntityCollection table) {
            return new TableRestore(table.table());
        }
        if (segment.equals(EntityHistory.SEGMENT) && above instanceof EntityItem entity) {
            return new EntityHistory(entity.table(), entity.partitionKey(), entity.rowKey());
        }
        throw invalid("The request URI addresses nothing below a table.");
    }

    /** {@code name(PartitionKey='p')}, the resource above {@code $partition}. */
    private static ResourcePath parsePartition(String resource) {
        int paren = resource.indexOf('(');
        if (paren <= 0 || !resource.endsWith(")") || resource.substring(0, paren).equals("Tables")
                || resource.startsWith("$")) {
            throw invalid("A partition is addressed as <table>(PartitionKey='<key>')/$partition.");
        }
        KeyScanner scanner = new KeyScanner(resource.substring(paren + 1, resource.length() - 1).strip());
        if (!scanner.name().equals("PartitionKey")) {
            throw invalid("A partition is addressed as <table>(PartitionKey='<key>')/$partition.");
        }
        scanner.expect('=');
        String partitionKey = scanner.quoted();
        scanner.end();
        return new EntityPartition(resource.substring(0, paren), partitionKey);
    }

    private static ResourcePath parseResource(String rest) {
        if (rest.isEmpty()) {
            return new Service();
        }
        if (rest.equals("$batch")) {
            return new Batch();
        }
        if (rest.equals(JOBS)) {
            return new JobCollection();
        }
        int paren = rest.indexOf('(');
        String name = paren < 0 ? rest : rest.substring(0, paren);
        if (name.isEmpty()) {
            throw invalid("The request URI names no resource.");
        }
        boolean tables = name.equals("Tables");
        if (name.equals(TRANSACTIONS)) {
            if (paren < 0 || rest.substring(paren).equals("()")) {
                return new TransactionCollection();
            }
            if (!rest.endsWith(")")) {
                throw invalid("Unbalanced parentheses in the request URI.");
            }
            KeyScanner scanner = new KeyScanner(rest.substring(paren + 1, rest.length() - 1).strip());
            String id = scanner.quoted();
            scanner.end();
            return new TransactionItem(id);
        }
        if (paren < 0) {
            return tables ? new TableCollection() : new EntityCollection(name);
        }
        if (!rest.endsWith(")")) {
            throw invalid("Unbalanced parentheses in the request URI.");
        }
        String inside = rest.substring(paren + 1, rest.length() - 1).strip();
        if (inside.isEmpty()) {
            return tables ? new TableCollection() : new EntityCollection(name);
        }
        KeyScanner scanner = new KeyScanner(inside);
        if (tables) {
            String tableName = scanner.quoted();
            scanner.end();
            return new TableItem(tableName);
        }
        String partitionKey = null;
        String rowKey = null;
        for (int i = 0; i < 2; i++) {
            String key = scanner.name();
            scanner.expect('=');
            String value = scanner.quoted();
            if (key.equals("PartitionKey") && partitionKey == null) {
                partitionKey = value;
            } else if (key.equals("RowKey") && rowKey == null) {
                rowKey = value;
            } else {
                throw invalid("An entity is addressed by PartitionKey and RowKey, each once.");
            }
            if (i == 0) {
                scanner.expect(',');
            }
        }
        scanner.end();
        return new EntityItem(name, partitionKey, rowKey);
    }

    /** Strict UTF-8 percent-decoding ({@code +} stays a plus in paths). */
    static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        int i = 0;
        while (i < s.length()) {
            int percent = s.indexOf('%', i);
            int runEnd = percent < 0 ? s.length() : percent;
            byte[] run = s.substring(i, runEnd).getBytes(StandardCharsets.UTF_8);
            out.write(run, 0, run.length);
            if (percent < 0) {
                break;
            }
            if (percent + 2 >= s.length()) {
                throw invalid("A truncated percent-escape in the request URI.");
            }
            int hi = Character.digit(s.charAt(percent + 1), 16);
            int lo = Character.digit(s.charAt(percent + 2), 16);
            if (hi < 0 || lo < 0) {
                throw invalid("A malformed percent-escape in the request URI.");
            }
            out.write(hi << 4 | lo);
            i = percent + 3;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw invalid("The request URI is not valid UTF-8.");
        }
    }

    private static TableServiceException invalid(String message) {
        return TableServiceException.of(ErrorCode.INVALID_URI, message);
    }

    /** Scans {@code PartitionKey='a',RowKey='b'} and {@code 'name'}. */
    final class KeyScanner {
        private final String s;
        private int i;

        KeyScanner(String s) {
            this.s = s;
        }

        String name() {
            skipSpaces();
            int start = i;
            while (i < s.length() && Character.isLetter(s.charAt(i))) {
                i++;
            }
            if (start == i) {
                throw invalid("Expected PartitionKey or RowKey in the request URI.");
            }
            return s.substring(start, i);
        }

        void expect(char c) {
            skipSpaces();
            if (i >= s.length() || s.charAt(i) != c) {
                throw invalid("Expected '" + c + "' in the key part of the request URI.");
            }
            i++;
        }

        String quoted() {
            expect('\'');
            StringBuilder value = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw invalid("An unterminated quoted value in the request URI.");
                }
                char c = s.charAt(i++);
                if (c == '\'') {
                    if (i < s.length() && s.charAt(i) == '\'') {
                        value.append('\'');
                        i++;
                    } else {
                        return value.toString();
                    }
                } else {
                    value.append(c);
                }
            }
        }

        void end() {
            skipSpaces();
            if (i != s.length()) {
                throw invalid("Unexpected text after the keys in the request URI.");
            }
        }

        private void skipSpaces() {
            while (i < s.length() && s.charAt(i) == ' ') {
                i++;
            }
        }
    }
}
