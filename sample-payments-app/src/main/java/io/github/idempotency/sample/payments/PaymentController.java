package io.github.idempotency.sample.payments;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.task.AsyncTaskExecutor;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.idempotency.IdempotencyContext;
import io.github.idempotency.annotation.Idempotent;

/**
 * The payments API: {@code POST /payments}, {@code POST /payments/async} and
 * {@code POST /payments/accepted} are safe to retry with the same {@code Idempotency-Key}.
 */
@RestController
@RequestMapping("/payments")
public class PaymentController {

	/**
	 * Name of the idempotent operation that creates payments.
	 */
	public static final String CREATE_OPERATION = "create-payment";

	/**
	 * Name of the idempotent operation that creates payments asynchronously; LEASED, since its
	 * work runs on another thread than the request's.
	 */
	public static final String CREATE_ASYNC_OPERATION = "create-payment-async";

	/**
	 * Name of the idempotent operation that creates payments answered {@code 202 Accepted} when
	 * the gateway is slower than its accept-after; LEASED, since its work goes on after its request.
	 */
	public static final String CREATE_ACCEPTED_OPERATION = "create-payment-accepted";

	static final String TENANT_HEADER = "X-Tenant-Id";

	static final String KEY_HEADER = "Idempotency-Key";

	private final PaymentService payments;

	private final AsyncTaskExecutor executor;

	public PaymentController(PaymentService payments,
			@Qualifier("applicationTaskExecutor") AsyncTaskExecutor executor) {
		this.payments = payments;
		this.executor = executor;
	}

	@Idempotent(operation = CREATE_OPERATION)
	@PostMapping
	public ResponseEntity<PaymentResponse> create(@RequestBody CreatePaymentRequest request,
			@RequestHeader(name = TENANT_HEADER, required = false) String tenant,
			@RequestHeader(name = KEY_HEADER, required = false) String key) {
		PaymentResponse payment = this.payments.create(PaymentKey.resolve(tenant, key), request);
		return ResponseEntity.created(URI.create("/payments/" + payment.id())).body(payment);
	}

	/**
	 * Create a payment on another thread, charging first: for a slow gateway, the request's
	 * thread is free while the gateway works. Past {@code spring.mvc.async.request-timeout} the
	 * client gets a 503 while the work goes on.
	 */
	@Idempotent(operation = CREATE_ASYNC_OPERATION)
	@PostMapping("/async")
	public CompletableFuture<ResponseEntity<PaymentResponse>> createAsync(@RequestBody CreatePaymentRequest request,
			@RequestHeader(name = TENANT_HEADER, required = false) String tenant,
			@RequestHeader(name = KEY_HEADER, required = false) String key) {
		PaymentKey paymentKey = PaymentKey.resolve(tenant, key);
		IdempotencyContext context = IdempotencyContext.current();
		return CompletableFuture.supplyAsync(() -> {
			IdempotencyContext.Scope scope = (context != null) ? IdempotencyContext.open(context) : null;
			try {
				PaymentResponse payment = this.payments.createChargingFirst(paymentKey, request);
				return ResponseEntity.created(URI.create("/payments/" + payment.id())).body(payment);
			}
			finally {
				if (scope != null) {
					scope.close();
				}
			}
		}, this.executor);
	}

	/**
	 * Create a payment, charging first; when the gateway takes longer than the operation's
	 * accept-after, the request is answered {@code 202 Accepted} with the link of its status, the
	 * work goes on, and the link answers with the payment once it is made.
	 */
	@Idempotent(operation = CREATE_ACCEPTED_OPERATION)
	@PostMapping("/accepted")
	public ResponseEntity<PaymentResponse> createAccepted(@RequestBody CreatePaymentRequest request,
			@RequestHeader(name = TENANT_HEADER, required = false) String tenant,
			@RequestHeader(name = KEY_HEADER, required = false) String key) {
		PaymentResponse payment = this.payments.createChargingFirst(PaymentKey.resolve(tenant, key), request);
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
