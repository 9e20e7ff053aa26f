package io.tablestream.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The service's error answer in a sentence: status, error code and message from the {@code odata.error} body. */
final class ServiceError {
    private static final JsonFactory JSON = new JsonFactory();

    private ServiceError() {
    }

    static String describe(int status, byte[] body) {
        String code = null;
        String message = null;
        if (body != null && body.length > 0) {
            try (JsonParser p = JSON.createParser(body)) {
                JsonToken t;
                String field = null;
                while ((t = p.nextToken()) != null) {
                    if (t == JsonToken.FIELD_NAME) {
                        field = p.currentName();
                    } else if (t == JsonToken.VALUE_STRING && "code".equals(field) && code == null) {
                        code = p.getText();
                    } else if (t == JsonToken.VALUE_STRING && "value".equals(field) && message == null) {
                        message = p.getText();
                    }
                }
            } catch (IOException e) {
                String text = new String(body, StandardCharsets.UTF_8).strip();
                message = text.length() > 200 ? text.substring(0, 200) + "..." : text;
            }
        }
        return status + (code == null ? "" : " " + code) + (message == null ? "" : ": " + message.strip());
    }
}
