package io.tablestream.kafka.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Exclusive use of a data directory by one embedded broker, in this JVM or any other.
 *
 * <p>Kafka locks its log directories only once the broker part starts, after the controller has
 * already opened the metadata log; a second instance on the same directory would write to that log.
 * This lock is taken before anything else and held until the broker has stopped.
 */
final class DirectoryLock implements AutoCloseable {
    static final String FILE_NAME = "embedded-broker.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DirectoryLock acquire(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(directory, null);
            }
            return new DirectoryLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(directory, e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new EmbeddedKafkaException("Cannot lock Kafka data directory " + directory, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // closing the channel releases the lock as well
        } finally {
            closeQuietly(channel);
        }
    }

    private static EmbeddedKafkaException inUse(Path directory, Throwable cause) {
        return new EmbeddedKafkaException("Kafka data directory " + directory
                + " is in use by another embedded broker", cause);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
