package dev.flowscale.engine.runtime;

import dev.flowscale.engine.metrics.InstanceCounterRecorder.Phase;
import java.util.ArrayList;
import java.util.List;

/**
 * What keeps a run from ending: its tasks still alive, those busy in their own processing (a user
 * function that does not return) first, each with its thread's stack. Read before the tasks are
 * interrupted, so the stack shows where they were stuck.
 */
final class BlockedTasks {
    /** Frames of each stack shown: enough to reach the user function from the task's loop. */
    private static final int FRAMES = 12;

    private BlockedTasks() {}

    /** One line per blocked task and its stack; empty when every task of {@code run} ended. */
    static String describe(JobExecution run) {
        List<Task> tasks = run.tasks();
        List<Thread> threads = run.threads();
        List<String> busy = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++) {
            Thread thread = threads.get(i);
            if (!thread.isAlive()) {
                continue;
            }
            Task task = tasks.get(i);
            Phase phase = task.metrics.phase();
            String line = describe(task, phase, thread);
            (phase == Phase.USEFUL ? busy : waiting).add(line);
        }
        List<String> shown = busy.isEmpty() ? waiting : busy;
        return String.join("\n", shown);
    }

    private static String describe(Task task, Phase phase, Thread thread) {
        StringBuilder text =
                new StringBuilder(task.context.describe())
                        .append(phase == Phase.USEFUL ? " is blocked in its function" : " waits")
                        .append(" (thread ")
                        .append(thread.getName())
                        .append(", ")
                        .append(thread.getState())
                        .append(")");
        StackTraceElement[] stack = thread.getStackTrace();
        for (int i = 0; i < Math.min(FRAMES, stack.length); i++) {
            text.append("\n\tat ").append(stack[i]);
        }
        return text.toString();
    }
}
