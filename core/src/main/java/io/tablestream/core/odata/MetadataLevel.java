package io.tablestream.core.odata;

import io.tablestream.core.error.ErrorCode;
import io.tablestream.core.error.TableServiceException;
import java.util.Locale;

/**
 * How much OData control information a JSON response carries, as the client asks for it with
 * {@code Accept} or {@code $format}: {@code application/json;odata=nometadata|minimalmetadata|fullmetadata}.
 *
 * <p>Negotiation decisions:
 * <ul>
 *   <li>{@code $format}, when present, overrides {@code Accept} (the service documents this for
 *       OData 3.0). Its short forms {@code json} (minimal) and {@code atom}/{@code xml} are understood.</li>
 *   <li>{@code application/json} without an {@code odata} parameter is minimal metadata, as on the service.
 *       Parameter names and values are case-insensitive and may come in any order; other parameters
 *       ({@code streaming}, {@code charset}, {@code q}) are ignored.</li>
 *   <li>{@code *}{@code /*} and {@code application/*} mean minimal metadata: JSON is the only format the
 *       service still speaks (since 2015-12-11), so a wildcard can only be satisfied by it.</li>
 *   <li>An {@code Accept} list is searched in order for the first range we can serve (ranges with
 *       {@code q=0} are skipped), so a browser's {@code text/html,...,*}{@code /*;q=0.8} gets JSON.</li>
 *   <li>No {@code Accept} and no {@code $format}: the documented default is Atom, which the service no
 *       longer supports, so this is {@code AtomFormatNotSupported} (415), as Azurite answers too.</li>
 *   <li>Atom or XML ({@code application/atom+xml}, {@code application/xml}) is {@code AtomFormatNotSupported};
 *       JSON with another {@code odata} value (e.g. the retired {@code verbose}) is
 *       {@code JsonFormatNotSupported}; anything else is {@code MediaTypeNotSupported}. All are 415.</li>
 * </ul>
 */
public enum MetadataLevel {
    NO("nometadata"),
    MINIMAL("minimalmetadata"),
    FULL("fullmetadata");

    private final String odataParameter;
    private final String contentType;

    MetadataLevel(String odataParameter) {
        this.odataParameter = odataParameter;
        this.contentType = "application/json;odata=" + odataParameter + ";streaming=true;charset=utf-8";
    }

    /** The {@code odata} parameter value naming this level, e.g. {@code minimalmetadata}. */
    public String odataParameter() {
        return odataParameter;
    }

    /** The response {@code Content-Type} the service sends for this level. */
    public String contentType() {
        return contentType;
    }

    /**
     * The level for a request, from its {@code $format} query parameter (which wins when present) and
     * its {@code Accept} header; either may be {@code null}.
     */
    public static MetadataLevel negotiate(String format, String accept) {
        if (format != null && !format.isBlank()) {
            return fromMediaRanges(format);
        }
        if (accept != null && !accept.isBlank()) {
            return fromMediaRanges(accept);
        }
        throw TableServiceException.of(ErrorCode.ATOM_FORMAT_NOT_SUPPORTED,
                "No Accept header or $format was given and the default format, Atom, is not supported; "
                        + "ask for application/json;odata=minimalmetadata.");
    }

    /** The level for an {@code Accept} header or {@code $format} value (a comma-separated list of media ranges). */
    public static MetadataLevel fromMediaRanges(String value) {
        TableServiceException firstFailure = null;
        for (String range : value.split(",")) {
            if (range.isBlank()) {
                continue;
            }
            try {
                MetadataLevel level = fromMediaRange(range);
                if (level != null) {
                    return level;
                }
            } catch (TableServiceException e) {
                if (firstFailure == null) {
                    firstFailure = e;
                }
            }
        }
        if (firstFailure != null) {
            throw firstFailure;
        }
        throw TableServiceException.of(ErrorCode.MEDIA_TYPE_NOT_SUPPORTED,
                "The Accept value '" + value + "' names no format the service supports.");
    }

    /** One media range; {@code null} when it is explicitly not acceptable ({@code q=0}). */
    private static MetadataLevel fromMediaRange(String range) {
        String[] parts = range.split(";");
        String type = parts[0].trim().toLowerCase(Locale.ROOT);
        String odata = null;
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            int eq = parameter.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String name = parameter.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String val = unquote(parameter.substring(eq + 1).trim()).toLowerCase(Locale.ROOT);
            if (name.equals("odata")) {
                odata = val;
            } else if (name.equals("q") && isZero(val)) {
                return null;
            }
        }
        switch (type) {
            case "application/json":
            case "json":
                if (odata == null) {
                    return MINIMAL;
                }
                for (MetadataLevel level : values()) {
                    if (level.odataParameter.equals(odata)) {
                        return level;
                    }
                }
                throw TableServiceException.of(ErrorCode.JSON_FORMAT_NOT_SUPPORTED,
                        "The JSON format odata=" + odata + " is not supported; use nometadata, minimalmetadata or fullmetadata.");
            case "*/*":
            case "application/*":
                return MINIMAL;
            case "application/atom+xml":
            case "application/xml":
            case "atom":
            case "xml":
                throw TableServiceException.of(ErrorCode.ATOM_FORMAT_NOT_SUPPORTED,
                        "The Atom format is not supported; use application/json.");
            default:
                throw TableServiceException.of(ErrorCode.MEDIA_TYPE_NOT_SUPPORTED,
                        "The media type '" + type + "' is not supported; use application/json.");
        }
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private static boolean isZero(String q) {
        try {
            return Double.parseDouble(q) == 0.0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
