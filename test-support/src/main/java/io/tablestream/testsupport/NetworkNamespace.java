package io.tablestream.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test host of its own on this machine: a Linux network namespace reached over two virtual links,
 * one to the Kafka brokers and one to everything else (clients, other instances), so that a test can
 * cut a process off from every broker while its clients still reach it ({@link #cutFromBrokers()}),
 * and heal the cut. Made with {@code ip netns} and veth pairs, which needs root; {@link #create()}
 * says why when it cannot be made.
 *
 * <pre>
 *   host                                          namespace
 *   brokersAddress()  10.x.y.1 ── link k ── 10.x.y.2
 *   clientsAddress()  10.x.y.5 ── link c ── 10.x.y.6  insideAddress()
 * </pre>
 *
 * Brokers listen on {@link #brokersAddress()} (an address of this machine, reached locally by every
 * process outside the namespace whatever the link's state); processes outside listen on
 * {@link #clientsAddress()}, the one inside on {@link #insideAddress()}. The cut takes link k down
 * on the host's side: what the process inside sends to the brokers is dropped without an answer, as
 * on a network that fails, not refused.
 */
public final class NetworkNamespace implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkNamespace.class);

    private final String name;
    private final String brokerLink;
    private final String clientLink;
    private final String prefix;
    private final Thread removeOnExit = new Thread(this::remove, "network-namespace-removal");

    private NetworkNamespace(String name, String brokerLink, String clientLink, String prefix) {
        this.name = name;
        this.brokerLink = brokerLink;
        this.clientLink = clientLink;
        this.prefix = prefix;
    }

    /** Why namespaces cannot be made here. */
    public static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason);
        }
    }

    /**
     * Makes a namespace with its two links.
     *
     * @throws Unavailable when this machine does not allow it (not root, no {@code ip}, no veth), saying why
     */
    public static NetworkNamespace create() throws Unavailable {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            throw new Unavailable("network namespaces need Linux");
        }
        String id = randomId();
        SecureRandom random = new SecureRandom();
        String prefix = "10." + (200 + random.nextInt(50)) + "." + random.nextInt(256) + ".";
        NetworkNamespace ns = new NetworkNamespace("ts-" + id, "tsk" + id, "tsc" + id, prefix);
        try {
            ns.run("ip", "netns", "add", ns.name);
        } catch (IllegalStateException e) {
            throw new Unavailable("cannot make a network namespace (it needs root and the ip command): " + e.getMessage());
        }
        Runtime.getRuntime().addShutdownHook(ns.removeOnExit); // should the test JVM end without closing it
        try {
            ns.link(ns.brokerLink, 1);
            ns.link(ns.clientLink, 5);
            ns.inside("ip", "link", "set", "lo", "up");
        } catch (IllegalStateException e) {
            ns.close();
            throw new Unavailable("cannot link a network namespace to this host (veth): " + e.getMessage());
        }
        LOG.info("Network namespace {}: brokers' link {} ({} - {}), clients' link {} ({} - {})", ns.name,
                ns.brokerLink, ns.brokersAddress(), prefix + 2, ns.clientLink, ns.clientsAddress(), ns.insideAddress());
        return ns;
    }

    /** A /30 link: {@code host} on the host's end, {@code host + 1} inside. */
    private void link(String link, int host) {
        String peer = link + "p";
        run("ip", "link", "add", link, "type", "veth", "peer", "name", peer);
        run("ip", "link", "set", peer, "netns", name);
        run("ip", "addr", "add", prefix + host + "/30", "dev", link);
        run("ip", "link", "set", link, "up");
        inside("ip", "addr", "add", prefix + (host + 1) + "/30", "dev", peer);
        inside("ip", "link", "set", peer, "up");
    }

    public String name() {
        return name;
    }

    /** The host's end of the brokers' link: the address brokers listen on. */
    public String brokersAddress() {
        return prefix + 1;
    }

    /** The host's end of the clients' link: the address processes outside the namespace listen on. */
    public String clientsAddress() {
        return prefix + 5;
    }

    /** The namespace's end of the clients' link: the address the process inside listens on. */
    public String insideAddress() {
        return prefix + 6;
    }

    /** The words that run a command inside the namespace: {@code ip netns exec <name>}, then the command. */
    public List<String> launcher() {
        return List.of("ip", "netns", "exec", name);
    }

    /** Cuts the namespace off from the brokers: what it sends them is dropped from now on. */
    public void cutFromBrokers() {
        run("ip", "link", "set", brokerLink, "down");
        LOG.info("Network namespace {} cut off from the brokers", name);
    }

    /** Heals {@link #cutFromBrokers()}. */
    public void heal() {
        run("ip", "link", "set", brokerLink, "up");
        LOG.info("Network namespace {} reaches the brokers again", name);
    }

    /** Removes the links and the namespace (the processes inside must be gone). */
    @Override
    public void close() {
        remove();
        try {
            Runtime.getRuntime().removeShutdownHook(removeOnExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs anyway
        }
    }

    private void remove() {
        for (String link : List.of(brokerLink, clientLink)) {
            runQuietly("ip", "link", "del", link);
        }
        runQuietly("ip", "netns", "del", name);
    }

    private void inside(String... command) {
        List<String> all = new ArrayList<>(launcher());
        all.addAll(List.of(command));
        run(all.toArray(String[]::new));
    }

    private void runQuietly(String... command) {
        try {
            run(command);
        } catch (IllegalStateException e) {
            LOG.debug("{}", e.getMessage());
        }
    }

    private void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + " cannot run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String randomId() {
        SecureRandom random = new SecureRandom();
        StringBuilder id = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            id.append(Character.forDigit(random.nextInt(36), 36));
        }
        return id.toString();
    }
}
