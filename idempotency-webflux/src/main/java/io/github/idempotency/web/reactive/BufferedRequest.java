package io.github.idempotency.web.reactive;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import reactor.core.publisher.Flux;

/**
 * A request whose body was read whole, for its fingerprint, and is read again from memory by the
 * handler.
 */
final class BufferedRequest extends ServerHttpRequestDecorator {

	private final byte[] body;

	private final DataBufferFactory buffers;

	BufferedRequest(ServerHttpRequest delegate, byte[] body, DataBufferFactory buffers) {
		super(delegate);
		this.body = body;
		this.buffers = buffers;
	}

	byte[] body() {
		return this.body;
	}

	@Override
	public Flux<DataBuffer> getBody() {
		return (this.body.length == 0) ? Flux.empty() : Flux.defer(() -> Flux.just(this.buffers.wrap(this.body)));
	}

}
