package io.github.idempotency.sample.intents;

import java.net.URI;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * The intent mandates API: {@code POST /intent-mandates} derives its idempotency key from the user
 * and a canonical hash of the intent, so the same intent gets the same mandate without an
 * {@code Idempotency-Key} header.
 */
@RestController
@RequestMapping("/intent-mandates")
public class IntentMandateController {

	/**
	 * Name of the idempotent operation that gives intent mandates.
	 */
	public static final String CREATE_OPERATION = "create-intent-mandate";

	private final IntentMandateService mandates;

	IntentMandateController(IntentMandateService mandates) {
		this.mandates = mandates;
	}

	@Idempotent(operation = CREATE_OPERATION, key = "@intentHasher.keyFor(#request)")
	@PostMapping
	public ResponseEntity<IntentMandate> create(@RequestBody CreateIntentMandateRequest request) {
		IntentMandateService.MandateGiven given = this.mandates.give(request);
		URI location = URI.create("/intent-mandates/" + given.mandate().id());
		return (given.created() ? ResponseEntity.created(location) : ResponseEntity.ok().location(location))
			.body(given.mandate());
	}

	@GetMapping("/{id}")
	public IntentMandate get(@PathVariable String id) {
		return this.mandates.find(id);
	}

}
