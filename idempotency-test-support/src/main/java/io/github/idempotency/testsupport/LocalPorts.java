package io.github.idempotency.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for the servers a test starts, drawn below Linux's ephemeral range.
 */
public final class LocalPorts {

	private static final int FROM = 20000;

	private static final int TO = 32000;

	private LocalPorts() {
	}

	/**
	 * Return a port that is free on the loopback address now. It lies below the ephemeral range
	 * (32768 and up), so no client socket of the machine takes it before the server binds it, as
	 * one may take a port that {@code new ServerSocket(0)} handed out; another server may still
	 * bind it first.
	 * @return the port
	 */
	public static int free() {
		for (int attempt = 0; attempt < 100; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(FROM, TO);
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				return socket.getLocalPort();
			}
			catch (IOException ex) {
				// Taken: draw another.
			}
		}
		throw new IllegalStateException("No free loopback port between " + FROM + " and " + TO);
	}

}
