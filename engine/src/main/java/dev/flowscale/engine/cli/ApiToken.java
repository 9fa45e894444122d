package dev.flowscale.engine.cli;

import dev.flowscale.engine.api.InvalidJobException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The bearer token of the runner's control API: {@code --api-token-file FILE}, else the environment
 * variable {@value #ENV} (which the Kubernetes operator sets from a Secret), else none (the API is
 * open). A token that is given but empty is an error, never an open API.
 */
final class ApiToken {
    static final String ENV = "FLOWSCALE_RUNNER_TOKEN";

    private ApiToken() {}

    /**
     * The token from {@code tokenFile} (null: not given), else from {@code env}; null if neither
     * has one.
     */
    static String resolve(Path tokenFile, Map<String, String> env) {
        if (tokenFile != null) {
            return nonBlank(
                    read(tokenFile),
                    "option --api-token-file "
                            + tokenFile
                            + " holds no token; write the token into it");
        }
        String fromEnv = env.get(ENV);
        return fromEnv == null
                ? null
                : nonBlank(
                        fromEnv,
                        "environment variable "
                                + ENV
                                + " is set but empty; set a token or unset it");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new InvalidJobException(
                    "option --api-token-file "
                            + file
                            + " cannot be read ("
                            + e
                            + "); name a readable file holding the token");
        }
    }

    /** A trailing newline (as {@code echo} writes it) is not part of the token. */
    private static String nonBlank(String token, String error) {
        String stripped = token.strip();
        if (stripped.isEmpty()) {
            throw new InvalidJobException(error);
        }
        return stripped;
    }
}
