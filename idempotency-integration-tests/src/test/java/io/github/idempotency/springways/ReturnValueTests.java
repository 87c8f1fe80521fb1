package io.github.idempotency.springways;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.github.idempotency.springways.Receipts.CardReceipt;
import io.github.idempotency.springways.Receipts.Receipt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A bean method's stored return value reads back as what the method returned, or is refused when
 * it is stored, never on a retry.
 */
class ReturnValueTests extends SpringWaysTest {

	@Autowired
	Receipts receipts;

	@Test
	void valueDeclaredAsAnInterfaceIsReplayedAsItsRuntimeType() {
		String id = unique();
		Receipt first = this.receipts.issue(id, 4200);
		Receipt retry = this.receipts.issue(id, 4200);
		assertThat(first).isEqualTo(new CardReceipt("R-" + id, 4200));
		assertThat(retry).isEqualTo(first);
		assertThat(this.effects.count("receipts", id)).isOne();
	}

	@Test
	void valueThatCannotBeReadBackFailsTheCallAndIsNotStored() {
		String id = unique();
		assertThatIllegalStateException().isThrownBy(() -> this.receipts.issueOpaque(id));
		assertThat(records(id)).isZero();
	}

}
