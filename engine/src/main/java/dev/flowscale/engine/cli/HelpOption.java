package dev.flowscale.engine.cli;

import picocli.CommandLine.Option;

/** {@code -h}/{@code --help} on every command (a mixin), printing the command's generated usage. */
public final class HelpOption {
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Print this help and exit.")
    boolean help;
}
