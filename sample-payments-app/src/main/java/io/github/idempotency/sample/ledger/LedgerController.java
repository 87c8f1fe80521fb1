package io.github.idempotency.sample.ledger;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Lists ledger entries: {@code GET /ledger}, optionally {@code ?customerId=...}.
 */
@RestController
public class LedgerController {

	private final LedgerService ledger;

	LedgerController(LedgerService ledger) {
		this.ledger = ledger;
	}

	@GetMapping("/ledger")
	public List<LedgerEntry> entries(@RequestParam(required = false) String customerId) {
		return this.ledger.entries(customerId);
	}

}
