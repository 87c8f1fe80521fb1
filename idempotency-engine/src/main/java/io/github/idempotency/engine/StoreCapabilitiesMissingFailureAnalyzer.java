package io.github.idempotency.engine;

import java.util.List;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.idempotency.engine.StoreCapabilityCheck.StoreCapability;

/**
 * Explains which operations need what the idempotency store does not offer, and the ways out.
 */
class StoreCapabilitiesMissingFailureAnalyzer extends AbstractFailureAnalyzer<StoreCapabilitiesMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, StoreCapabilitiesMissingException cause) {
		StringBuilder description = new StringBuilder("The idempotency store, " + cause.store()
				+ ", does not offer what these operations need:\n");
		StringBuilder action = new StringBuilder();
		for (StoreCapability capability : StoreCapability.values()) {
			List<String> reasons = cause.missing().get(capability);
			if (reasons == null) {
				continue;
			}
			description.append('\n').append(heading(capability)).append(':');
			reasons.forEach((reason) -> description.append("\n    - ").append(reason));
			action.append((action.length() > 0) ? "\n\n" : "").append(action(capability));
		}
		return new FailureAnalysis(description.toString(), action.toString(), cause);
	}

	private static String heading(StoreCapability capability) {
		return switch (capability) {
			case SEQUENCES -> "  sequence numbers (@IdempotentSequence), which the store does not keep";
			case TRANSACTIONS -> "  ATOMIC mode, whose claim commits with the operation's writes in one database "
					+ "transaction, which the store cannot join";
		};
	}

	private static String action(StoreCapability capability) {
		return switch (capability) {
			case SEQUENCES -> """
					Use a store that keeps sequence numbers: the starter's JDBC store (PostgreSQL, MariaDB, H2) or its \
					Redis store; or make your own store a SequencingIdempotencyStore (advanceSequence(...)), held \
					to SequencingIdempotencyStoreContractTests; or remove @IdempotentSequence from these methods.""";
			case TRANSACTIONS -> """
					Use LEASED for these operations (mode = LEASED on @Idempotent, or \
					idempotency.operations.<name>.mode=leased), or keep the records in the application's \
					database with the starter's JDBC store (idempotency.store.type=jdbc, on the application's \
					DataSource rather than an @IdempotencyDataSource of another), whose claims join the \
					operation's transaction (a store of your own can, as a TransactionalIdempotencyStore).""";
		};
	}

}
