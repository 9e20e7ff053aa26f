package io.tablestream.protocol.xml;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The body of Get Table Service Stats:
 * {@code <StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>Wed, 19 Jan 2022 22:28:43 GMT</LastSyncTime></GeoReplication></StorageServiceStats>}
 * — the status {@code live}, {@code bootstrap} or {@code unavailable}, and the time (to the second,
 * RFC 1123) before which every write is readable on the secondary location.
 */
public final class ServiceStatsXml {
    /** The replication states the service reports. */
    public enum Status {
        LIVE, BOOTSTRAP, UNAVAILABLE;

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private ServiceStatsXml() {
    }

    /** @param lastSyncTime null when unknown (written as an empty element, as the service does when unavailable) */
    public static byte[] write(Status status, Instant lastSyncTime) {
        String time = lastSyncTime == null ? ""
                : DateTimeFormatter.RFC_1123_DATE_TIME.format(lastSyncTime.truncatedTo(ChronoUnit.SECONDS)
                        .atOffset(ZoneOffset.UTC));
        return new XmlOutput().start("StorageServiceStats").start("GeoReplication")
                .leaf("Status", status.wire())
                .leaf("LastSyncTime", time)
                .end("GeoReplication").end("StorageServiceStats").toBytes();
    }
}
