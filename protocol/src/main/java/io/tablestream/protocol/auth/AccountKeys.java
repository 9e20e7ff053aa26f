package io.tablestream.protocol.auth;

import io.tablestream.core.model.EmulatorAccount;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The storage accounts this service knows and their keys: one or two per account, decoded from
 * base64 once. The emulator's well-known account ({@value EmulatorAccount#NAME}) is available through
 * {@link #emulator()} and {@link Builder#emulatorAccount()}. Keys are never printed.
 */
public final class AccountKeys {
    /** Storage account names: 3 to 24 lower-case letters and digits. */
    public static final Pattern ACCOUNT_NAME = Pattern.compile("^[a-z0-9]{3,24}$");

    private final Map<String, List<AccountKey>> keys;

    private AccountKeys(Map<String, List<AccountKey>> keys) {
        this.keys = Collections.unmodifiableMap(keys);
    }

    /** Only the emulator account with its well-known key. */
    public static AccountKeys emulator() {
        return builder().emulatorAccount().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean contains(String account) {
        return keys.containsKey(account);
    }

    /** The account names, in the order they were added. */
    public Set<String> accounts() {
        return keys.keySet();
    }

    /** The keys of an account (key1 first), empty when the account is unknown. */
    List<AccountKey> keysOf(String account) {
        return keys.getOrDefault(account, List.of());
    }

    @Override
    public String toString() {
        return "AccountKeys" + keys.keySet();
    }

    /** Collects accounts; a name given twice keeps its last keys. */
    public static final class Builder {
        private final Map<String, List<AccountKey>> keys = new LinkedHashMap<>();

        private Builder() {
        }

        /** Adds {@value EmulatorAccount#NAME} with the emulator's key. */
        public Builder emulatorAccount() {
            return account(EmulatorAccount.NAME, EmulatorAccount.KEY);
        }

        /** Adds an account with one base64 key. */
        public Builder account(String name, String base64Key) {
            return add(name, base64Key);
        }

        /** Adds an account with its primary and secondary base64 keys; either one signs requests. */
        public Builder account(String name, String base64Key1, String base64Key2) {
            return add(name, base64Key1, base64Key2);
        }

        private Builder add(String name, String... base64Keys) {
            if (name == null || !ACCOUNT_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("An account name must be 3 to 24 lower-case letters and digits: " + name);
            }
            List<AccountKey> decoded = new ArrayList<>();
            for (int i = 0; i < base64Keys.length; i++) {
                decoded.add(new AccountKey("key" + (i + 1), decode(name, i + 1, base64Keys[i])));
            }
            keys.put(name, List.copyOf(decoded));
            return this;
        }

        private static byte[] decode(String account, int index, String base64Key) {
            byte[] bytes;
            try {
                bytes = base64Key == null ? null : Base64.getDecoder().decode(base64Key.strip());
            } catch (IllegalArgumentException e) {
                bytes = null; // the message of e may quote the key
            }
            if (bytes == null || bytes.length == 0) {
                throw new IllegalArgumentException("Key " + index + " of account " + account + " is not valid base64.");
            }
            return bytes;
        }

        public AccountKeys build() {
            return new AccountKeys(new LinkedHashMap<>(keys));
        }
    }
}
