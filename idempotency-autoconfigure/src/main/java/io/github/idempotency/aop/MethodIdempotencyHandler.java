package io.github.idempotency.aop;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.core.Ordered;
import org.springframework.transaction.UnexpectedRollbackException;

import io.github.idempotency.core.Completion;
import io.github.idempotency.core.Decision;
import io.github.idempotency.core.Disposition;
import io.github.idempotency.core.Execution;
import io.github.idempotency.core.FingerprintRequest;
import io.github.idempotency.core.IdempotencyContext;
import io.github.idempotency.core.IdempotencyEngine;
import io.github.idempotency.core.IdempotencyKey;
import io.github.idempotency.core.IdempotencyKeyInProgressException;
import io.github.idempotency.core.IdempotencyKeyMismatchException;
import io.github.idempotency.core.IdempotencyKeys;
import io.github.idempotency.core.IdempotencyMdc;
import io.github.idempotency.core.IdempotencyLeaseLostException;
import io.github.idempotency.core.MissingIdempotencyKeyException;
import io.github.idempotency.core.OperationPolicies;
import io.github.idempotency.core.OperationPolicy;
import io.github.idempotency.core.OutcomeClassifier;
import io.github.idempotency.core.RequestFingerprinter;
import io.github.idempotency.core.TenantResolver;
import io.github.idempotency.store.StoredResponse;

/**
 * Runs {@code @Idempotent} methods of any bean, such as message listeners: the key comes from the
 * key expression, the fingerprint from the arguments, and a duplicate gets the stored return value
 * without the method running.
 */
public class MethodIdempotencyHandler implements IdempotentInvocationHandler, Ordered {

	private final IdempotencyEngine engine;

	private final OperationPolicies policies;

	private final TenantResolver tenantResolver;

	private final RequestFingerprinter fingerprinter;

	private final KeyExpressionEvaluator keyEvaluator;

	private final OutcomeClassifier classifier;

	private final ReturnValueCodec codec;

	public MethodIdempotencyHandler(IdempotencyEngine engine, OperationPolicies policies,
			TenantResolver tenantResolver, RequestFingerprinter fingerprinter, KeyExpressionEvaluator keyEvaluator,
			OutcomeClassifier classifier, ReturnValueCodec codec) {
		this.engine = engine;
		this.policies = policies;
		this.tenantResolver = tenantResolver;
		this.fingerprinter = fingerprinter;
		this.keyEvaluator = keyEvaluator;
		this.classifier = classifier;
		this.codec = codec;
	}

	@Override
	public boolean supports(MethodInvocation invocation, IdempotentAttributes attributes) {
		return true;
	}

	@Override
	public Object invoke(MethodInvocation invocation, IdempotentAttributes attributes) throws Throwable {
		String operation = attributes.operationOutsideWeb();
		try (IdempotencyMdc.Scope mdc = IdempotencyMdc.scope()) {
			IdempotencyMdc.putOperation(operation);
			return invokeIdempotently(invocation, attributes, operation);
		}
	}

	private Object invokeIdempotently(MethodInvocation invocation, IdempotentAttributes attributes,
			String operation) throws Throwable {
		String derived = (attributes.keyExpression() != null) ? this.keyEvaluator.evaluate(attributes, invocation)
				: null;
		if (derived == null) {
			if (!attributes.required()) {
				return invocation.proceed();
			}
			this.engine.reportMissingKey(operation);
			throw new MissingIdempotencyKeyException("@Idempotent " + attributes.method().getName()
					+ " needs a key: outside Spring MVC handlers, set @Idempotent(key = ...) to an expression "
					+ "that yields one.");
		}
		IdempotencyKey key = new IdempotencyKey(this.tenantResolver.resolveTenant(), operation,
				IdempotencyKeys.fromDerivedValue(derived));
		IdempotencyMdc.putKey(key.key());
		OperationPolicy policy = this.policies.policyFor(operation, attributes.mode());
		String fingerprint = this.fingerprinter.fingerprint(new FingerprintRequest(operation,
				attributes.method().toGenericString(), null, "application/json",
				this.codec.arguments(invocation.getArguments())));
		Decision decision = this.engine.begin(key, fingerprint, policy);
		if (decision instanceof Decision.Proceed proceed) {
			return run(invocation, proceed.execution(), attributes);
		}
		return answer(decision, attributes);
	}

	private Object run(MethodInvocation invocation, Execution execution, IdempotentAttributes attributes)
			throws Throwable {
		Object result;
		try (IdempotencyContext.Scope scope = execution.context().open()) {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			try {
				if (this.classifier.classify(ex) == Disposition.STORE) {
					Completion completion = execution.complete(this.codec.threw(ex), true);
					if (completion instanceof Completion.Superseded superseded) {
						return answer(superseded.decision(), attributes);
					}
				}
				else {
					execution.release();
				}
			}
			catch (RuntimeException storeFailure) {
				ex.addSuppressed(storeFailure);
			}
			throw ex;
		}
		StoredResponse response;
		try {
			response = this.codec.returned(result, attributes.method());
		}
		catch (RuntimeException ex) {
			execution.release();
			throw new IllegalStateException("The result of " + execution.key() + " cannot be stored, so its key was "
					+ "released: " + ex.getMessage(), ex);
		}
		Completion completion;
		try {
			completion = execution.complete(response, false);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("Could not store the result of " + execution.key()
					+ "; it runs again on a retry once its lease runs out", ex);
		}
		if (completion instanceof Completion.TakenOver) {
			throw new IdempotencyLeaseLostException(execution.policy().lease());
		}
		if (completion instanceof Completion.RolledBack) {
			throw new UnexpectedRollbackException("The transaction of " + execution.key() + " was marked "
					+ "rollback-only, so its writes rolled back and nothing was stored");
		}
		if (completion instanceof Completion.Superseded superseded) {
			return answer(superseded.decision(), attributes);
		}
		return result;
	}

	private Object answer(Decision decision, IdempotentAttributes attributes) {
		if (decision instanceof Decision.Replay replay) {
			return this.codec.replay(replay.response(), attributes.method());
		}
		if (decision instanceof Decision.InProgress inProgress) {
			throw new IdempotencyKeyInProgressException(inProgress.retryAfter());
		}
		throw new IdempotencyKeyMismatchException(
				"This idempotency key was already used for a call with different arguments.");
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
