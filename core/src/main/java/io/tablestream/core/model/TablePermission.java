package io.tablestream.core.model;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A permission a stored access policy or a table SAS grants on a table's entities, with the
 * letter the service writes it as. The canonical order of the letters is {@code raud}, the
 * declaration order of the constants.
 */
public enum TablePermission {
    /** Query entities ({@code r}). */
    READ('r'),
    /** Insert entities ({@code a}). */
    ADD('a'),
    /** Update, merge and upsert entities ({@code u}). */
    UPDATE('u'),
    /** Delete entities ({@code d}). */
    DELETE('d');

    private final char symbol;

    TablePermission(char symbol) {
        this.symbol = symbol;
    }

    /** The letter that stands for this permission. */
    public char symbol() {
        return symbol;
    }

    /**
     * The permissions a letter string grants, in any order ({@code "ra"} and {@code "ar"} are the
     * same set). Letters are case-sensitive; the empty string grants nothing.
     *
     * @throws IllegalArgumentException for a letter that is not one of {@code raud}, or a letter
     *         given twice; callers turn this into the error their operation answers with
     */
    public static Set<TablePermission> parse(String letters) {
        Objects.requireNonNull(letters, "letters");
        EnumSet<TablePermission> set = EnumSet.noneOf(TablePermission.class);
        for (int i = 0; i < letters.length(); i++) {
            char c = letters.charAt(i);
            TablePermission p = forSymbol(c);
            if (p == null) {
                throw new IllegalArgumentException("'" + c + "' is not a table permission (expected letters from 'raud')");
            }
            if (!set.add(p)) {
                throw new IllegalArgumentException("The table permission '" + c + "' is given more than once");
            }
        }
        return Collections.unmodifiableSet(set);
    }

    /** The letters of a set of permissions in canonical order, e.g. {@code "rud"}. */
    public static String symbols(Set<TablePermission> permissions) {
        StringBuilder sb = new StringBuilder(4);
        for (TablePermission p : values()) {
            if (permissions.contains(p)) {
                sb.append(p.symbol);
            }
        }
        return sb.toString();
    }

    private static TablePermission forSymbol(char c) {
        for (TablePermission p : values()) {
            if (p.symbol == c) {
                return p;
            }
        }
        return null;
    }
}
