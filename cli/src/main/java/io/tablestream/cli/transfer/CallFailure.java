package io.tablestream.cli.transfer;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A failure without an answer — a file that cannot be read or written, a host that does not
 * resolve, a port where nothing listens, a service that does not answer in time — in words that
 * name the file or the host, never a Java exception's name.
 */
public final class CallFailure {
    private CallFailure() {
    }

    /**
     * {@code error} (or what it wraps) in a sentence; {@code endpoint} is the Table service's
     * endpoint the command talks to (named when the failure is the network's).
     */
    public static String describe(Throwable error, String endpoint) {
        Throwable e = unwrap(error);
        String host = host(endpoint);
        if (e instanceof NoSuchFileException f) {
            return "No such file: " + f.getFile() + (f.getReason() == null ? "" : " (" + f.getReason() + ")");
        }
        if (e instanceof AccessDeniedException f) {
            return "Permission denied: " + f.getFile();
        }
        if (e instanceof FileAlreadyExistsException f) {
            return "The file " + f.getFile() + " exists already";
        }
        if (e instanceof NotDirectoryException f) {
            return "Not a directory: " + f.getFile();
        }
        if (e instanceof FileSystemException f) {
            return (f.getReason() == null ? "Cannot use the file" : f.getReason()) + ": " + f.getFile();
        }
        if (e instanceof FileNotFoundException f) {
            return "Cannot open the file: " + f.getMessage();
        }
        if (has(e, UnknownHostException.class) || has(e, UnresolvedAddressException.class)) {
            return "Unknown host '" + hostName(endpoint) + "' (the Table endpoint " + endpoint + "): check the connection string's"
                    + " TableEndpoint or AccountName";
        }
        if (e instanceof HttpConnectTimeoutException) {
            return "Cannot connect to " + host + " (the Table endpoint " + endpoint + "): it did not answer in time";
        }
        if (has(e, ConnectException.class) || has(e, ClosedChannelException.class)) {
            return "Cannot connect to " + host + " (the Table endpoint " + endpoint + "): nothing answers there. Is the"
                    + " server running, and is the port right?";
        }
        if (e instanceof HttpTimeoutException) {
            return "The Table service at " + host + " did not answer in time";
        }
        if (e instanceof IOException) {
            String message = e.getMessage();
            return "The connection to " + host + " failed" + (message == null || message.isBlank() ? "" : ": " + message);
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? "An unexpected failure, without a message" : message;
    }

    /** What an asynchronous call's failure wraps. */
    public static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof ExecutionException || e instanceof CompletionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static boolean has(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String hostName(String endpoint) {
        try {
            String name = URI.create(endpoint).getHost();
            return name == null ? endpoint : name;
        } catch (IllegalArgumentException e) {
            return endpoint;
        }
    }

    /** host:port of an endpoint (the endpoint itself when it is not a URL). */
    static String host(String endpoint) {
        try {
            URI uri = URI.create(endpoint);
            if (uri.getHost() == null) {
                return endpoint;
            }
            return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        } catch (IllegalArgumentException e) {
            return endpoint;
        }
    }
}
