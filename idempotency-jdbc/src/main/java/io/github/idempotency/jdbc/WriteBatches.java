package io.github.idempotency.jdbc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * Writes (claims, completions) that arrive while another is being written go to the database
 * together, as one statement and one commit: whoever finds no write in flight writes at once,
 * alone; whoever finds one waits in line, and when it lands the first in line writes all that
 * waited, up to a batch. A lone write so waits for nothing, and a batch grows only with load.
 *
 * @param <T> what is written
 * @param <R> what a write answers
 */
final class WriteBatches<T, R> {

	private final int maxSize;

	private final Function<List<T>, List<R>> write;

	private final Predicate<RuntimeException> failsEveryWrite;

	private final Object lock = new Object();

	private final ArrayDeque<Waiting> line = new ArrayDeque<>();

	private boolean writing;

	/**
	 * Create the batches.
	 * @param maxSize the most writes one statement makes
	 * @param write makes a batch of writes, answering each in order: its answer, or {@code null}
	 * for one that must be written alone (its row lost a race, or the batch failed)
	 * @param failsEveryWrite whether a failure of a batch is every write's (the database cannot be
	 * reached, say), rather than one write's, which writing each alone finds out
	 */
	WriteBatches(int maxSize, Function<List<T>, List<R>> write,
			Predicate<RuntimeException> failsEveryWrite) {
		this.maxSize = maxSize;
		this.write = write;
		this.failsEveryWrite = failsEveryWrite;
	}

	/**
	 * Write, in a batch with those waiting beside it.
	 * @param request what to write
	 * @return its answer, or {@code null} if it must be written alone
	 */
	R write(T request) {
		Waiting mine = new Waiting(request);
		boolean writer;
		synchronized (this.lock) {
			this.line.add(mine);
			writer = !this.writing;
			this.writing = true;
		}
		if (!writer && !mine.awaitTurnOrResult()) {
			return mine.result();
		}
		List<Waiting> batch = new ArrayList<>();
		synchronized (this.lock) {
			while (!this.line.isEmpty() && batch.size() < this.maxSize) {
				batch.add(this.line.poll());
			}
		}
		try {
			List<R> results;
			try {
				results = this.write.apply(batch.stream().map(Waiting::request).toList());
			}
			catch (RuntimeException ex) {
				if (batch.size() == 1) {
					throw ex;
				}
				if (this.failsEveryWrite.test(ex)) {
					batch.forEach((waiting) -> waiting.failed(ex));
					return mine.result();
				}
				// One write's failure must not fail the others: each is written alone instead.
				results = null;
			}
			for (int i = 0; i < batch.size(); i++) {
				batch.get(i).done((results != null) ? results.get(i) : null);
			}
		}
		finally {
			// A batch that ended in an Error answers no one else: none may be left waiting.
			for (Waiting waiting : batch) {
				// Only one left unanswered gets an exception: its stack trace costs more than a write.
				if (waiting != mine && !waiting.answered) {
					waiting.failed(new IllegalStateException("The batch that held this write failed"));
				}
			}
			synchronized (this.lock) {
				Waiting next = this.line.peek();
				if (next == null) {
					this.writing = false;
				}
				else {
					next.takeTurn();
				}
			}
		}
		return mine.result();
	}

	/**
	 * Return how many writes wait in line for the one being written.
	 * @return the number waiting
	 */
	int waiting() {
		synchronized (this.lock) {
			return this.line.size();
		}
	}

	/**
	 * A write in line: it is either made by another's batch, or given the turn to write.
	 */
	private final class Waiting {

		private final T request;

		private final CompletableFuture<Boolean> turnOrResult = new CompletableFuture<>();

		private volatile @Nullable R result;

		private volatile RuntimeException failure;

		private volatile boolean answered;

		Waiting(T request) {
			this.request = request;
		}

		T request() {
			return this.request;
		}

		/**
		 * Wait until this is written, or its turn to write comes.
		 * @return {@code true} for the turn to write
		 */
		boolean awaitTurnOrResult() {
			boolean interrupted = false;
			try {
				while (true) {
					try {
						return this.turnOrResult.get();
					}
					catch (InterruptedException ex) {
						// The write is on its way: its answer must be taken, whatever the caller wants.
						interrupted = true;
					}
					catch (ExecutionException ex) {
						throw new IllegalStateException(ex.getCause());
					}
				}
			}
			finally {
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}

		void takeTurn() {
			this.turnOrResult.complete(true);
		}

		void done(@Nullable R result) {
			this.result = result;
			this.answered = true;
			this.turnOrResult.complete(false);
		}

		/**
		 * Fail the write with its batch, unless it was answered already.
		 */
		void failed(RuntimeException failure) {
			if (!this.answered) {
				this.failure = failure;
				this.answered = true;
				this.turnOrResult.complete(false);
			}
		}

		/**
		 * Return the write's answer: its own, or {@code null} to be written alone.
		 * @throws RuntimeException the failure of its batch, when it was every write's
		 */
		@Nullable R result() {
			RuntimeException failed = this.failure;
			if (failed != null) {
				throw failed;
			}
			return this.result;
		}

	}

}
