package io.tablestream.bench.workload;

/** The server answered something other than what the table holds: the run fails. */
public final class WrongAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WrongAnswer(String message) {
        super(message);
    }
}
