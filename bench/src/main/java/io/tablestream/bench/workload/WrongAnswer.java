package io.tablestream.bench.workload;

/** The server answered something other than what the table holds: the run fails. */
final class WrongAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WrongAnswer(String message) {
        super(message);
    }
}
