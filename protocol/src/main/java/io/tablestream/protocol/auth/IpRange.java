package io.tablestream.protocol.auth;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A SAS {@code sip} restriction: one IPv4 address or an inclusive range {@code a-b}. */
record IpRange(long low, long high) {
    private static final Pattern IPV4 = Pattern.compile("^([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})$");

    /** The range, or {@code null} when {@code text} is not an address or a range of two. */
    static IpRange parse(String text) {
        int dash = text.indexOf('-');
        long low = ipv4(dash < 0 ? text : text.substring(0, dash));
        long high = dash < 0 ? low : ipv4(text.substring(dash + 1));
        if (low < 0 || high < 0 || high < low) {
            return null;
        }
        return new IpRange(low, high);
    }

    boolean contains(InetAddress address) {
        long value = toLong(address);
        return value >= 0 && value >= low && value <= high;
    }

    private static long ipv4(String text) {
        Matcher m = IPV4.matcher(text);
        if (!m.matches()) {
            return -1;
        }
        long value = 0;
        for (int i = 1; i <= 4; i++) {
            int octet = Integer.parseInt(m.group(i));
            if (octet > 255) {
                return -1;
            }
            value = (value << 8) | octet;
        }
        return value;
    }

    /** An IPv4 address (or an IPv4-mapped IPv6 one) as a number, else -1. */
    private static long toLong(InetAddress address) {
        byte[] b = address.getAddress();
        int offset;
        if (address instanceof Inet4Address) {
            offset = 0;
        } else if (address instanceof Inet6Address && isIpv4Mapped(b)) {
            offset = 12;
        } else {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < 4; i++) {
            value = (value << 8) | (b[offset + i] & 0xFF);
        }
        return value;
    }

    private static boolean isIpv4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return (b[10] & 0xFF) == 0xFF && (b[11] & 0xFF) == 0xFF;
    }
}
