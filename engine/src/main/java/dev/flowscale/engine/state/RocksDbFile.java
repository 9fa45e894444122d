package dev.flowscale.engine.state;

/**
 * One file of a RocksDB checkpoint as snapshot storage holds it.
 *
 * @param name the file's name in the RocksDB folder (e.g. {@code 000012.sst})
 * @param file its plain name in storage: in the storage's {@code shared} folder if {@code shared},
 *     else in the snapshot's own folder
 * @param shared true for an immutable SST file that several checkpoints may reference
 * @param bytes its length
 * @param crc32 its CRC-32
 * @param sha256 its SHA-256 (hex)
 */
public record RocksDbFile(
        String name, String file, boolean shared, long bytes, long crc32, String sha256) {}
