CREATE TABLE "usage_anonymous" (
	"batch" text NOT NULL,
	"route" text NOT NULL,
	"status" integer NOT NULL,
	"requests" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_anonymous_batch_route_status_pk" PRIMARY KEY("batch","route","status")
);
--> statement-breakpoint
CREATE INDEX "usage_anonymous_window_idx" ON "usage_anonymous" USING btree ("window_start");