package io.github.idempotency.sample.observability;

import java.io.File;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.idempotency.IdempotencyListener;
import io.github.idempotency.KeyHashes;
import io.github.idempotency.sample.SamplePaymentsApplication;
import io.github.idempotency.sample.payments.PaymentController;
import io.github.idempotency.sample.support.Carts;
import io.github.idempotency.sample.support.PostgresDatasource;
import io.github.idempotency.testsupport.Http;
import io.github.idempotency.testsupport.PostgresTestDatabase;

import static io.github.idempotency.sample.support.Payments.body;
import static io.github.idempotency.sample.support.Payments.customer;
import static io.github.idempotency.sample.support.Payments.json;
import static io.github.idempotency.sample.support.Payments.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator dashboard page of the sample on PostgreSQL, in a real headless Chromium driven by
 * Selenium: it shows the sample's live figures and charts, and an operator releases a stuck key
 * through it, which the database confirms.
 */
@DirtiesContext
@SpringBootTest(classes = { SamplePaymentsApplication.class, DashboardBrowserTests.GateConfiguration.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "idempotency.dashboard.enabled=true", "idempotency.purge.cron=-",
				"management.endpoints.web.exposure.include=health,idempotency,idempotencydashboard",
				// Long enough that no lease renewal moves the stuck record's lease back into the future.
				"idempotency.operations.create-payment.lease=10m" })
class DashboardBrowserTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String PAYMENTS = PaymentController.CREATE_OPERATION;

	/**
	 * Set to {@code true} to also copy the screenshot to {@code docs/dashboard.png}, the one the
	 * guide's operations page shows.
	 */
	private static final String UPDATE_DOCS = "dashboard.screenshot.docs";

	static final PostgresTestDatabase database = PostgresTestDatabase.create("dashboard");

	static WebDriver browser;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		PostgresDatasource.register(registry, database);
	}

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	PaymentGate gate;

	@BeforeAll
	static void startChromium(@TempDir Path profile) {
		List<String> paths = Repository.ensure("ensure-chromium.sh");
		assertThat(paths).hasSize(2);
		ChromeOptions options = new ChromeOptions();
		options.setBinary(paths.get(0));
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1400,1700");
		System.setProperty("webdriver.chrome.driver", paths.get(1));
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(paths.get(1)))
			.usingAnyFreePort()
			.build();
		browser = new ChromeDriver(service, options);
	}

	@AfterAll
	static void stopChromium() {
		if (browser != null) {
			browser.quit();
		}
	}

	@AfterEach
	void letHeldPaymentsGo() {
		this.gate.open();
	}

	@Test
	void thePageShowsTheSamplesLiveFiguresAndReleasesAStuckKeyAfterConfirmation() throws Exception {
		Http http = new Http(this.port);
		String replayedKey = newKey();
		String replayed = body(customer("c-"), 2999, "USD");
		assertThat(pay(http, replayedKey, replayed).statusCode()).isEqualTo(201);
		assertThat(pay(http, replayedKey, replayed).statusCode()).isEqualTo(201);
		assertThat(pay(http, replayedKey, body(customer("c-"), 1, "USD")).statusCode()).isEqualTo(422);
		assertThat(http.post("/payments").json(replayed).send().statusCode()).isEqualTo(400);
		String flakyKey = newKey();
		String flaky = body(customer("flaky-"), 1500, "EUR");
		assertThat(pay(http, flakyKey, flaky).statusCode()).isEqualTo(503);
		assertThat(pay(http, flakyKey, flaky).statusCode()).isEqualTo(201);
		Carts.createMandate(http);
		Carts.createMandate(http);

		browser.get("http://localhost:" + this.port + "/actuator/idempotencydashboard?interval=1");
		await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered).untilAsserted(() -> {
			assertThat(cell(PAYMENTS, "executed")).isEqualTo("2");
			assertThat(cell(PAYMENTS, "replayed")).isEqualTo("1");
			assertThat(cell(PAYMENTS, "mismatch")).isEqualTo("1");
			assertThat(cell(PAYMENTS, "missing_key")).isEqualTo("1");
			assertThat(cell(PAYMENTS, "released")).isEqualTo("1");
			assertThat(cell("create-cart-mandate", "executed")).isEqualTo("2");
			assertThat(text("requests-total")).isEqualTo("8");
			assertThat(field(PAYMENTS, "completed")).isEqualTo("2");
		});
		assertThat(text("duplicate-rate")).isEqualTo("13 %");
		assertThat(field(PAYMENTS, "duplicate-rate")).isEqualTo("17 %");

		for (int wave = 0; wave < 3; wave++) {
			int updates = updates();
			for (int i = 0; i <= wave; i++) {
				String key = newKey();
				String request = body(customer("c-"), 100 + i, "USD");
				assertThat(pay(http, key, request).statusCode()).isEqualTo(201);
				assertThat(pay(http, key, request).statusCode()).isEqualTo(201);
			}
			await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered).until(() -> updates() > updates + 1);
		}
		await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered).untilAsserted(() -> {
			assertThat(cell(PAYMENTS, "executed")).isEqualTo("8");
			assertThat(cell(PAYMENTS, "replayed")).isEqualTo("7");
			assertThat(browser.findElements(By.cssSelector("#outcomes-chart polyline[data-series='replayed']")))
				.hasSize(1);
			assertThat(browser.findElements(By.cssSelector("#duplicates-chart polyline[data-series='" + PAYMENTS
					+ "']"))).hasSize(1);
		});

		String stuckKey = newKey();
		String stuckRequest = body(customer("c-"), 4200, "USD");
		this.gate.holdNext();
		CompletableFuture<HttpResponse<byte[]>> held = http.post("/payments").key(stuckKey).json(stuckRequest).sendAsync();
		assertThat(this.gate.awaitHeld()).isTrue();
		assertThat(pay(http, stuckKey, stuckRequest).statusCode()).isEqualTo(409);
		await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered).untilAsserted(() -> {
			assertThat(text("in-flight")).isEqualTo("1");
			assertThat(cell(PAYMENTS, "conflict")).isEqualTo("1");
			assertThat(field(PAYMENTS, "in-progress")).isEqualTo("1");
		});
		assertThat(this.jdbc.update("UPDATE idempotency_record SET locked_until = now() - interval '1 second' "
				+ "WHERE operation = ? AND idempotency_key = ? AND status = 'IN_PROGRESS'", PAYMENTS, stuckKey))
			.isOne();
		await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered).untilAsserted(() -> {
			assertThat(text("stuck-total")).isEqualTo("1");
			assertThat(field(PAYMENTS, "stuck")).startsWith("1");
		});

		row(PAYMENTS).findElement(By.cssSelector("[data-field='stuck'] button")).click();
		assertThat(browser.findElement(By.id("release-operation")).getDomProperty("value")).isEqualTo(PAYMENTS);
		browser.findElement(By.id("release-key")).sendKeys(stuckKey);
		browser.findElement(By.id("lookup")).click();
		await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered).untilAsserted(() -> {
			assertThat(text("record-details")).contains("IN_PROGRESS").contains("#" + KeyHashes.shortHash(stuckKey));
			assertThat(browser.findElement(By.cssSelector("[data-field='record-lease']")).getText())
				.isEqualTo("expired");
		});
		Path screenshot = screenshot();
		assertThat(Files.size(screenshot)).isGreaterThan(10_000);

		browser.findElement(By.id("release")).click();
		WebElement dialog = waitFor().until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-release")));
		assertThat(dialog.getText()).contains("#" + KeyHashes.shortHash(stuckKey)).contains(PAYMENTS);
		browser.findElement(By.id("confirm-cancel")).click();
		waitFor().until(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm-release")));
		assertThat(records(stuckKey)).as("the record after the operator cancelled").isOne();

		browser.findElement(By.id("release")).click();
		waitFor().until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-ok"))).click();
		await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered)
			.untilAsserted(() -> assertThat(text("release-message"))
				.isEqualTo("Released #" + KeyHashes.shortHash(stuckKey) + ": the next retry runs the operation again."));
		assertThat(records(stuckKey)).as("the record after the operator confirmed").isZero();
		await().atMost(TIMEOUT).ignoreExceptionsMatching(DashboardBrowserTests::rerendered).untilAsserted(() -> assertThat(text("stuck-total")).isEqualTo("0"));

		this.gate.open();
		HttpResponse<byte[]> lost = held.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		assertThat(lost.statusCode()).isEqualTo(409);
		assertThat(json(lost).get("type").asString()).isEqualTo("urn:problem-type:idempotency:lease-lost");
		assertThat(records(stuckKey)).isZero();
	}

	private static HttpResponse<byte[]> pay(Http http, String key, String request) {
		return http.post("/payments").key(key).json(request).send();
	}

	private long records(String key) {
		return this.jdbc.queryForObject("SELECT count(*) FROM idempotency_record WHERE operation = ? "
				+ "AND idempotency_key = ?", Long.class, PAYMENTS, key);
	}

	/**
	 * Whether an element was missing or replaced while read: the page renders its rows anew on
	 * every poll, so an element found a moment ago may be gone.
	 */
	private static boolean rerendered(Throwable failure) {
		return failure instanceof NoSuchElementException || failure instanceof StaleElementReferenceException;
	}

	private static WebElement row(String operation) {
		return browser.findElement(By.cssSelector("#operations tr[data-operation='" + operation + "']"));
	}

	private static String cell(String operation, String outcome) {
		return row(operation).findElement(By.cssSelector("[data-outcome='" + outcome + "']")).getText();
	}

	private static String field(String operation, String field) {
		return row(operation).findElement(By.cssSelector("[data-field='" + field + "']")).getText();
	}

	private static String text(String id) {
		return browser.findElement(By.id(id)).getText();
	}

	private static int updates() {
		String updates = browser.findElement(By.tagName("body")).getDomAttribute("data-updates");
		return (updates != null) ? Integer.parseInt(updates) : 0;
	}

	private static WebDriverWait waitFor() {
		return new WebDriverWait(browser, TIMEOUT);
	}

	/**
	 * Write a screenshot of the page under {@code target/}, and to {@code docs/} when asked to.
	 */
	private static Path screenshot() throws IOException {
		byte[] png = ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES);
		Path file = Path.of("target", "dashboard.png").toAbsolutePath();
		Files.createDirectories(file.getParent());
		Files.write(file, png);
		if (Boolean.getBoolean(UPDATE_DOCS)) {
			Path docs = Repository.root().resolve("docs").resolve("dashboard.png");
			Files.createDirectories(docs.getParent());
			Files.copy(file, docs, StandardCopyOption.REPLACE_EXISTING);
		}
		return file;
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class GateConfiguration {

		@Bean
		PaymentGate paymentGate() {
			return new PaymentGate();
		}

	}

	/**
	 * Holds the next payment right after its key is claimed, until the test lets it go, as a request
	 * whose instance hangs does.
	 */
	static class PaymentGate implements IdempotencyListener {

		private final AtomicBoolean armed = new AtomicBoolean();

		private volatile CountDownLatch held = new CountDownLatch(1);

		private volatile CountDownLatch open = new CountDownLatch(0);

		void holdNext() {
			this.held = new CountDownLatch(1);
			this.open = new CountDownLatch(1);
			this.armed.set(true);
		}

		boolean awaitHeld() throws InterruptedException {
			return this.held.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		}

		void open() {
			this.armed.set(false);
			this.open.countDown();
		}

		@Override
		public void onExecutionStarted(String operation, boolean takenOver) {
			if (PAYMENTS.equals(operation) && this.armed.compareAndSet(true, false)) {
				this.held.countDown();
				try {
					this.open.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
