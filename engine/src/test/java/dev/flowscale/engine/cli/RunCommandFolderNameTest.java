package dev.flowscale.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RunCommandFolderNameTest {

    @Test
    void aPlainJobNameIsItsOwnFolder() {
        assertEquals("wordcount", RunCommand.folderName("wordcount"));
        assertEquals("page-views_2.v1", RunCommand.folderName("page-views_2.v1"));
    }

    @Test
    void aNamespacedNameStaysOneFolderUnderFlowscaleData() {
        String folder = RunCommand.folderName("team-a/pageviews");
        assertEquals("team-a_pageviews", folder);
        assertEquals(1, Path.of(folder).getNameCount());
    }

    @Test
    void aNameThatWouldLeaveTheDataFolderCannot() {
        Path data = Path.of("flowscale-data");
        for (String name : new String[] {"..", ".", "../../etc", "a/../../b", "/abs", ""}) {
            Path folder = data.resolve(RunCommand.folderName(name)).normalize();
            assertEquals(data, folder.getParent(), name + " -> " + folder);
        }
    }
}
