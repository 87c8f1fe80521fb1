package io.github.idempotency.engine;

import java.util.List;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.transaction.UnexpectedRollbackException;

import io.github.idempotency.store.FailureTypes;
import io.github.idempotency.Disposition;
import io.github.idempotency.FingerprintRequest;
import io.github.idempotency.IdempotencyException;
import io.github.idempotency.IdempotencyStoreUnavailableException;
import io.github.idempotency.OutcomeClassifier;
import io.github.idempotency.annotation.IdempotencyMode;
import io.github.idempotency.IdempotencyKeys;
import io.github.idempotency.IdempotencyLeaseLostException;
import io.github.idempotency.store.StoredResponse;

/**
 * The entry point of {@code @Idempotent} methods of any bean, such as message listeners: the key
 * comes from the key expression, the fingerprint from the fingerprint expression or else the
 * arguments without transport metadata, and a duplicate gets the stored return value without the
 * method running. The result is stored when the method returns.
 */
class MethodIdempotencyHandler implements IdempotentInvocationHandler, Ordered {

	private final IdempotentInvocation invocation;

	private final KeyExpressionEvaluator keyEvaluator;

	private final OutcomeClassifier classifier;

	private final ReturnValueCodec codec;

	private final List<MessageArguments> messageArguments;

	private final FingerprintArguments fingerprintArguments;

	public MethodIdempotencyHandler(IdempotentInvocation invocation, KeyExpressionEvaluator keyEvaluator,
			OutcomeClassifier classifier, ReturnValueCodec codec, List<MessageArguments> messageArguments) {
		this.invocation = invocation;
		this.keyEvaluator = keyEvaluator;
		this.classifier = classifier;
		this.codec = codec;
		this.messageArguments = List.copyOf(messageArguments);
		this.fingerprintArguments = new FingerprintArguments(this.messageArguments);
	}

	@Override
	public boolean supports(MethodInvocation invocation, IdempotentAttributes attributes) {
		return true;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation, IdempotentAttributes attributes) throws Throwable {
		try (IdempotencyMdc.Scope mdc = IdempotencyMdc.scope()) {
			return this.invocation.invoke(new BeanMethodCall(invocation, attributes));
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * One call of an {@code @Idempotent} bean method.
	 */
	private final class BeanMethodCall implements CallAdapter<Object> {

		private final MethodInvocation invocation;

		private final IdempotentAttributes attributes;

		BeanMethodCall(MethodInvocation invocation, IdempotentAttributes attributes) {
			this.invocation = invocation;
			this.attributes = attributes;
		}

		@Override
		public String operation() {
			return this.attributes.operationOutsideWeb();
		}

		@Override
		public @Nullable String key() {
			if (this.attributes.keyExpression() == null) {
				return carriedKey();
			}
			return MethodIdempotencyHandler.this.keyEvaluator.key(this.attributes, this.invocation);
		}

		/**
		 * Return the key the call's message carries, checked as a key header is.
		 */
		private @Nullable String carriedKey() {
			for (MessageArguments technology : MethodIdempotencyHandler.this.messageArguments) {
				String raw = technology.key(this.attributes, this.invocation.getArguments());
				if (raw != null) {
					return IdempotencyKeys.parseHeader(raw);
				}
			}
			return null;
		}

		@Override
		public boolean required() {
			return this.attributes.required();
		}

		@Override
		public @Nullable IdempotencyMode mode() {
			return this.attributes.mode();
		}

		@Override
		public FingerprintRequest fingerprint(String operation) {
			return new FingerprintRequest(operation, this.attributes.method().toGenericString(), null,
					"application/json", fingerprintBody());
		}

		private byte[] fingerprintBody() {
			MethodIdempotencyHandler handler = MethodIdempotencyHandler.this;
			if (this.attributes.fingerprintExpression() != null) {
				return handler.codec.value(handler.keyEvaluator.fingerprint(this.attributes, this.invocation));
			}
			return handler.codec
				.arguments(handler.fingerprintArguments.of(this.attributes.method(), this.invocation.getArguments()));
		}

		@Override
		public @Nullable SequenceNumber sequence() {
			return MethodIdempotencyHandler.this.keyEvaluator.sequence(this.attributes, this.invocation);
		}

		@Override
		public @Nullable Object proceedUnguarded() throws Throwable {
			return this.invocation.proceed();
		}

		@Override
		public @Nullable Object run(IdempotentCall call) throws Throwable {
			Object result;
			try {
				result = this.invocation.proceed();
			}
			catch (Throwable ex) {
				return failed(call, ex);
			}
			StoredResponse response;
			try {
				response = MethodIdempotencyHandler.this.codec.returned(result, this.attributes.method());
			}
			catch (RuntimeException ex) {
				call.release(FailureTypes.of(ex));
				throw new IllegalStateException("The result of " + call.key() + " cannot be stored, so its key "
						+ "was released: " + ex.getMessage(), ex);
			}
			Answer answer = call.finish(response, null, Disposition.STORE);
			if (answer instanceof Answer.Deliver) {
				return result;
			}
			if (answer instanceof Answer.Replay replay) {
				return replay(replay.response());
			}
			if (answer instanceof Answer.Refuse refuse) {
				throw refuse.refusal();
			}
			throw new UnexpectedRollbackException("The transaction of " + call.key() + " was marked "
					+ "rollback-only, so its writes rolled back and nothing was stored");
		}

		/**
		 * The method threw: a final exception is stored and replayed; any other releases the key.
		 * Either way the caller gets the exception, unless a duplicate took the key meanwhile.
		 */
		private @Nullable Object failed(IdempotentCall call, Throwable failure) throws Throwable {
			MethodIdempotencyHandler handler = MethodIdempotencyHandler.this;
			Disposition disposition = handler.classifier.classify(failure);
			Answer answer = call.finish(handler.codec.threw(failure), failure, disposition);
			if (answer instanceof Answer.Replay replay) {
				return replay(replay.response());
			}
			if (answer instanceof Answer.Refuse refuse) {
				IdempotencyException refusal = refuse.refusal();
				if (refusal instanceof IdempotencyStoreUnavailableException
						|| refusal instanceof IdempotencyLeaseLostException) {
					failure.addSuppressed(refusal);
				}
				else {
					throw refusal;
				}
			}
			throw failure;
		}

		@Override
		public @Nullable Object refuse(IdempotencyException refusal) {
			throw refusal;
		}

		@Override
		public @Nullable Object replay(StoredResponse stored) {
			return MethodIdempotencyHandler.this.codec.replay(stored, this.attributes.method());
		}

		@Override
		public String missingKeyDetail() {
			return "@Idempotent " + this.attributes.method().getName() + " needs a key: outside Spring MVC handlers, "
					+ "set @Idempotent(key = ...) to an expression that yields one, or send the key in the "
					+ "Idempotency-Key header of a message whose technology the starter reads (Kafka).";
		}

		@Override
		public String mismatchDetail() {
			return "This idempotency key was already used for a call with different arguments.";
		}

	}

}
