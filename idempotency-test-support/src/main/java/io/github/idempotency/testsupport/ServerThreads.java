package io.github.idempotency.testsupport;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A one-line account of where a server's threads in this JVM are, for a test whose request never
 * ended: each store, Reactor, Netty, Lettuce, Tomcat or coroutine thread that is not idle, with the frames it is in.
 */
final class ServerThreads {

	private static final String[] NAMES = { "idempotency-", "parallel-", "boundedElastic-", "reactor-http-",
			"http-nio-", "lettuce-", "DefaultDispatcher-worker-" };

	private static final String[] OURS = { "io.github.idempotency", "org.postgresql", "com.zaxxer", "io.lettuce",
			"org.mariadb", "org.h2" };

	private ServerThreads() {
	}

	static String digest() {
		// The whole of it goes to the test's output, for what the one line leaves out.
		Thread.getAllStackTraces().forEach((thread, stack) -> {
			System.err.println("\"" + thread.getName() + "\" " + thread.getState());
			Stream.of(stack).forEach((frame) -> System.err.println("\tat " + frame));
		});
		String busy = Thread.getAllStackTraces()
			.entrySet()
			.stream()
			.filter((thread) -> Stream.of(NAMES).anyMatch(thread.getKey().getName()::startsWith))
			.filter((thread) -> !idle(thread.getValue()))
			.map(ServerThreads::describe)
			.sorted()
			.collect(Collectors.joining(" | "));
		return busy.isEmpty() ? "no server thread is busy" : "busy server threads: " + busy;
	}

	private static boolean idle(StackTraceElement[] stack) {
		return Stream.of(stack).noneMatch(ServerThreads::ours);
	}

	private static boolean ours(StackTraceElement frame) {
		return Stream.of(OURS).anyMatch(frame.getClassName()::startsWith);
	}

	private static String describe(Map.Entry<Thread, StackTraceElement[]> thread) {
		String frames = Stream.of(thread.getValue())
			.filter(ServerThreads::ours)
			.limit(3)
			.map((frame) -> simpleName(frame.getClassName()) + "." + frame.getMethodName() + ":" + frame.getLineNumber())
			.collect(Collectors.joining(" < "));
		return thread.getKey().getName() + " " + thread.getKey().getState() + " " + frames;
	}

	private static String simpleName(String className) {
		return className.substring(className.lastIndexOf('.') + 1);
	}

}
