package io.tablestream.server.tls;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The little of ASN.1 DER that turning the traditional OpenSSL key forms (PKCS#1 RSA, SEC1 EC)
 * into PKCS#8 needs: reading one element's tag and content, and writing a sequence, an integer, an
 * octet string, an object identifier and a null.
 */
final class Der {
    static final int INTEGER = 0x02;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OBJECT_IDENTIFIER = 0x06;
    static final int SEQUENCE = 0x30;
    /** {@code [0]}, constructed: the curve parameters of a SEC1 EC private key. */
    static final int CONTEXT_0 = 0xA0;

    /** rsaEncryption, 1.2.840.113549.1.1.1. */
    static final byte[] RSA_ENCRYPTION = {0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01};
    /** id-ecPublicKey, 1.2.840.10045.2.1. */
    static final byte[] EC_PUBLIC_KEY = {0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01};

    /** One element: its tag and its content (the bytes after the length). */
    record Element(int tag, byte[] content) {
        /** The elements a constructed element (a sequence) holds, in order. */
        List<Element> children() {
            List<Element> out = new ArrayList<>();
            int[] at = {0};
            while (at[0] < content.length) {
                out.add(read(content, at));
            }
            return out;
        }
    }

    private Der() {
    }

    /** The one element {@code der} holds; {@link IllegalArgumentException} when it is not DER or holds more. */
    static Element parse(byte[] der) {
        int[] at = {0};
        Element e = read(der, at);
        if (at[0] != der.length) {
            throw new IllegalArgumentException("trailing bytes after the DER element");
        }
        return e;
    }

    private static Element read(byte[] der, int[] at) {
        int i = at[0];
        if (i + 2 > der.length) {
            throw new IllegalArgumentException("truncated DER element");
        }
        int tag = der[i++] & 0xFF;
        int length = der[i++] & 0xFF;
        if (length >= 0x80) {
            int bytes = length & 0x7F;
            if (bytes == 0 || bytes > 3 || i + bytes > der.length) {
                throw new IllegalArgumentException("unsupported DER length");
            }
            length = 0;
            for (int k = 0; k < bytes; k++) {
                length = (length << 8) | (der[i++] & 0xFF);
            }
        }
        if (i + length > der.length) {
            throw new IllegalArgumentException("truncated DER element");
        }
        at[0] = i + length;
        return new Element(tag, Arrays.copyOfRange(der, i, i + length));
    }

    static byte[] sequence(byte[]... elements) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] e : elements) {
            content.writeBytes(e);
        }
        return element(SEQUENCE, content.toByteArray());
    }

    static byte[] integer(int value) {
        return element(INTEGER, new byte[] {(byte) value});
    }

    static byte[] octetString(byte[] content) {
        return element(OCTET_STRING, content);
    }

    static byte[] objectIdentifier(byte[] encoded) {
        return element(OBJECT_IDENTIFIER, encoded);
    }

    static byte[] nullValue() {
        return element(NULL, new byte[0]);
    }

    /** An element of {@code tag} with {@code content}, its length in DER's definite form. */
    static byte[] element(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        } else {
            out.write(0x83);
            out.write(n >> 16);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }
}
