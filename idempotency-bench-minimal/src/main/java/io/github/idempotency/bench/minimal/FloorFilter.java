package io.github.idempotency.bench.minimal;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The least any store could write around {@code POST /items} for the guarantees of a mode, run
 * with the starter switched off ({@code bench.floor=LEASED} or {@code ATOMIC}): for LEASED, a key
 * row inserted and committed durably before the method (its effect may be outside the database),
 * and updated with the answer's status and committed durably after it; for ATOMIC, the same insert and update in one
 * transaction with the method's. No fingerprint, no lease, no body capture, a table with only its
 * primary key: the benchmark's floor scenarios show what the round trips and commits alone cost.
 */
final class FloorFilter extends OncePerRequestFilter {

	private static final String CLAIM = """
			INSERT INTO floor_record (k, status) VALUES (:key, 'IN_PROGRESS')
			""";

	private static final String COMPLETE = """
			UPDATE floor_record SET status = 'COMPLETED', response_status = :status WHERE k = :key
			""";

	private final JdbcClient jdbc;

	private final TransactionTemplate transaction;

	private final boolean atomic;

	FloorFilter(JdbcClient jdbc, TransactionTemplate transaction, boolean atomic) {
		this.jdbc = jdbc;
		this.transaction = transaction;
		this.atomic = atomic;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !"POST".equals(request.getMethod()) || request.getHeader("Idempotency-Key") == null;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String key = request.getHeader("Idempotency-Key");
		if (!this.atomic) {
			claim(key);
			chain.doFilter(request, response);
			complete(key, response.getStatus());
			return;
		}
		try {
			this.transaction.executeWithoutResult((status) -> {
				claim(key);
				try {
					chain.doFilter(request, response);
				}
				catch (IOException | ServletException ex) {
					throw new IllegalStateException(ex);
				}
				complete(key, response.getStatus());
			});
		}
		catch (IllegalStateException ex) {
			if (ex.getCause() instanceof IOException io) {
				throw io;
			}
			if (ex.getCause() instanceof ServletException servlet) {
				throw servlet;
			}
			throw ex;
		}
	}

	private void claim(String key) {
		this.jdbc.sql(CLAIM).param("key", key).update();
	}

	private void complete(String key, int status) {
		this.jdbc.sql(COMPLETE).param("key", key).param("status", status).update();
	}

}
