package io.github.idempotency.web.reactive;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.github.idempotency.store.StoredResponse;

/**
 * Holds what the handler chain writes, status, headers and body, until its call is settled; only
 * then is it sent, or what replaces it. A streamed body is collected whole.
 */
final class CapturingResponse extends ServerHttpResponseDecorator {

	private final HttpHeaders headers = new HttpHeaders();

	private final ByteArrayOutputStream body = new ByteArrayOutputStream();

	private @Nullable HttpStatusCode status;

	private static final int UNSENT = 0;

	private static final int SENT = 1;

	private static final int SENT_ACCEPTED = 2;

	private final AtomicInteger sent = new AtomicInteger(UNSENT);

	CapturingResponse(ServerHttpResponse delegate) {
		super(delegate);
	}

	@Override
	public boolean setStatusCode(@Nullable HttpStatusCode status) {
		this.status = status;
		return true;
	}

	@Override
	public @Nullable HttpStatusCode getStatusCode() {
		return this.status;
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.headers;
	}

	@Override
	public boolean isCommitted() {
		return false;
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		return Flux.from(body).doOnNext(this::capture).then();
	}

	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		return Flux.from(body).concatMap(Flux::from).doOnNext(this::capture).then();
	}

	@Override
	public Mono<Void> setComplete() {
		return Mono.empty();
	}

	private void capture(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			synchronized (this.body) {
				this.body.writeBytes(bytes);
			}
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	int status() {
		return (this.status != null) ? this.status.value() : HttpStatus.OK.value();
	}

	byte[] body() {
		synchronized (this.body) {
			return this.body.toByteArray();
		}
	}

	HttpHeaders headers() {
		return this.headers;
	}

	/**
	 * Send what the handler chain wrote, with the given body.
	 * @param body the body to send
	 * @return completion of the write
	 */
	Mono<Void> sendCaptured(byte[] body) {
		if (!this.sent.compareAndSet(UNSENT, SENT)) {
			// An accepted request's 202 went first: what its work wrote is stored, not sent.
			return Mono.empty();
		}
		ServerHttpResponse response = getDelegate();
		response.setStatusCode(HttpStatusCode.valueOf(status()));
		response.getHeaders().putAll(this.headers);
		return write(response, body);
	}

	/**
	 * Send another response than the handler chain's: a replay or a problem.
	 * @param answer the status, headers and body to send
	 * @param extraHeaders headers added to the answer's
	 * @return completion of the write
	 */
	Mono<Void> sendInstead(StoredResponse answer, Map<String, List<String>> extraHeaders) {
		Mono<Void> sending = sendFirst(answer, extraHeaders);
		return (sending != null) ? sending : Mono.empty();
	}

	/**
	 * Send another response than the handler chain's, unless a response was sent already.
	 * @param answer the status, headers and body to send
	 * @param extraHeaders headers added to the answer's
	 * @return completion of the write, or {@code null} if a response was sent already
	 */
	@Nullable Mono<Void> sendFirst(StoredResponse answer, Map<String, List<String>> extraHeaders) {
		return this.sent.compareAndSet(UNSENT, SENT) ? send(answer, extraHeaders) : null;
	}

	/**
	 * Send the {@code 202 Accepted} answer of a request whose work goes on, unless a response was
	 * sent already; from then on, what the work's end sends is nothing.
	 * @param answer the answer
	 * @return completion of the write, or {@code null} if a response was sent already
	 */
	@Nullable Mono<Void> sendAccepted(StoredResponse answer) {
		return this.sent.compareAndSet(UNSENT, SENT_ACCEPTED) ? send(answer, Map.of()) : null;
	}

	/**
	 * Return whether the request was answered {@code 202 Accepted} while its work goes on.
	 * @return whether it was
	 */
	boolean sentAccepted() {
		return this.sent.get() == SENT_ACCEPTED;
	}

	private Mono<Void> send(StoredResponse answer, Map<String, List<String>> extraHeaders) {
		ServerHttpResponse response = getDelegate();
		response.setStatusCode(HttpStatusCode.valueOf(answer.status()));
		answer.headers().forEach((name, values) -> response.getHeaders().put(name, List.copyOf(values)));
		extraHeaders.forEach((name, values) -> response.getHeaders().put(name, List.copyOf(values)));
		return write(response, answer.body());
	}

	private static Mono<Void> write(ServerHttpResponse response, byte[] body) {
		response.getHeaders().setContentLength(body.length);
		if (body.length == 0) {
			return response.setComplete();
		}
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

}
