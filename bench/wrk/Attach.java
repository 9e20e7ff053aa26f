import com.sun.tools.attach.VirtualMachine;

/**
 * Loads a native agent into a running JVM, e.g. async-profiler (libasyncProfiler.so from
 * tools.profiler:async-profiler on Maven Central) with its command:
 * {@code java bench/wrk/Attach.java <pid> <libasyncProfiler.so> start,event=cpu,interval=1ms,threads}
 * and later {@code ... stop,collapsed,file=<out>}.
 */
public final class Attach {
    public static void main(String[] args) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgentPath(args[1], args[2]);
        } finally {
            vm.detach();
        }
    }
}
