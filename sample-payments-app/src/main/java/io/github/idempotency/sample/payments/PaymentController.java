package io.github.idempotency.sample.payments;

import java.net.URI;
import java.util.List;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.annotation.Idempotent;

/**
 * The payments API: {@code POST /payments} is safe to retry with the same
 * {@code Idempotency-Key}.
 */
@RestController
@RequestMapping("/payments")
public class PaymentController {

	/**
	 * Name of the idempotent operation that creates payments.
	 */
	public static final String CREATE_OPERATION = "create-payment";

	static final String TENANT_HEADER = "X-Tenant-Id";

	static final String KEY_HEADER = "Idempotency-Key";

	private final PaymentService payments;

	public PaymentController(PaymentService payments) {
		this.payments = payments;
	}

	@Idempotent(operation = CREATE_OPERATION)
	@PostMapping
	public ResponseEntity<PaymentResponse> create(@RequestBody CreatePaymentRequest request,
			@RequestHeader(name = TENANT_HEADER, required = false) String tenant,
			@RequestHeader(name = KEY_HEADER, required = false) String key) {
		PaymentResponse payment = this.payments.create(PaymentKey.resolve(tenant, key), request);
		return ResponseEntity.created(URI.create("/payments/" + payment.id())).body(payment);
	}

	@GetMapping("/{id}")
	public PaymentResponse get(@PathVariable long id,
			@RequestHeader(name = TENANT_HEADER, defaultValue = PaymentKey.DEFAULT_TENANT) String tenant) {
		return this.payments.find(tenant, id);
	}

	@GetMapping
	public List<PaymentResponse> list(@RequestParam String customerId,
			@RequestHeader(name = TENANT_HEADER, defaultValue = PaymentKey.DEFAULT_TENANT) String tenant) {
		return this.payments.findByCustomer(tenant, customerId);
	}

}
