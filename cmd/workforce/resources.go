package main

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/spf13/pflag"

	"github.com/workforce-marketplace/workforce-go"
)

// page is the page options of a list: per records a page (0: the most).
func page(per int) workforce.ListOptions { return workforce.ListOptions{Per: per} }

// timeFlags registers --updated-after and --updated-before.
func timeFlags(fs *pflag.FlagSet, f *filters) {
	fs.StringVar(&f.updatedAfter, "updated-after", "", "only those changed after `time`")
	fs.StringVar(&f.updatedBefore, "updated-before", "", "only those changed before `time`")
}

// resources are the read command groups, in the order --help lists them.
var resources = []resource{
	{
		name: "jobs", what: "Jobs",
		columns: []string{"ID", "STATE", "JOB REQUEST", "WORKER", "UPDATED"},
		flags: func(fs *pflag.FlagSet, f *filters) {
			fs.StringVar(&f.state, "state", "", "only Jobs in `state` (filled, in_progress, completed, approved, …)")
			fs.Int64Var(&f.jobRequest, "job-request", 0, "only the Jobs of the Job Request `id`")
			timeFlags(fs, f)
		},
		list: func(ctx context.Context, c *workforce.Client, f *filters, per int) iter.Seq2[row, error] {
			return rows(c.Jobs.All(ctx, &workforce.JobListOptions{ListOptions: page(per), State: workforce.JobState(f.state),
				JobRequestID: f.jobRequest, UpdatedAfter: f.after, UpdatedBefore: f.before}), rawJob, jobCells)
		},
		get: func(ctx context.Context, c *workforce.Client, n int64) (row, error) {
			r, resp, err := c.Jobs.Get(ctx, n)
			return one(r, resp, err, rawJob, jobCells)
		},
	},
	{
		name: "job-requests", what: "Job Requests",
		columns: []string{"ID", "STATE", "NAME", "CUSTOMER", "START", "UPDATED"},
		flags: func(fs *pflag.FlagSet, f *filters) {
			fs.StringVar(&f.state, "state", "", "only Job Requests in `state` (posted, filled, cancelled, …)")
			fs.Int64Var(&f.customer, "customer", 0, "only the Job Requests of the Customer `id`")
			timeFlags(fs, f)
		},
		list: func(ctx context.Context, c *workforce.Client, f *filters, per int) iter.Seq2[row, error] {
			return rows(c.JobRequests.All(ctx, &workforce.JobRequestListOptions{ListOptions: page(per),
				State: workforce.JobRequestState(f.state), CompanyID: f.customer, UpdatedAfter: f.after,
				UpdatedBefore: f.before}), rawJobRequest, jobRequestCells)
		},
		get: func(ctx context.Context, c *workforce.Client, n int64) (row, error) {
			r, resp, err := c.JobRequests.Get(ctx, n)
			return one(r, resp, err, rawJobRequest, jobRequestCells)
		},
	},
	{
		name: "users", what: "Users",
		columns: []string{"ID", "TYPE", "NAME", "EMAIL", "UPDATED"},
		flags: func(fs *pflag.FlagSet, f *filters) {
			fs.StringVar(&f.userType, "type", "", "only Users of `type` (worker or employer)")
			fs.StringVar(&f.email, "email", "", "only the User of `address`")
			timeFlags(fs, f)
		},
		list: func(ctx context.Context, c *workforce.Client, f *filters, per int) iter.Seq2[row, error] {
			o := &workforce.UserListOptions{ListOptions: page(per), Type: workforce.UserType(f.userType),
				UpdatedAfter: f.after, UpdatedBefore: f.before}
			if f.email != "" {
				o.Email = []string{f.email}
			}
			return rows(c.Users.All(ctx, o), rawUser, userCells)
		},
		get: func(ctx context.Context, c *workforce.Client, n int64) (row, error) {
			r, resp, err := c.Users.Get(ctx, n)
			return one(r, resp, err, rawUser, userCells)
		},
	},
	{
		name: "customers", what: "Customers",
		columns: []string{"ID", "NAME", "CITY", "STATE"},
		flags:   func(*pflag.FlagSet, *filters) {},
		list: func(ctx context.Context, c *workforce.Client, _ *filters, per int) iter.Seq2[row, error] {
			o := page(per)
			return rows(c.Customers.All(ctx, &o), rawCustomer, customerCells)
		},
		get: func(ctx context.Context, c *workforce.Client, n int64) (row, error) {
			r, resp, err := c.Customers.Get(ctx, n)
			return one(r, resp, err, rawCustomer, customerCells)
		},
	},
	{
		name: "badges", what: "Badges",
		columns: []string{"ID", "NAME", "DESCRIPTION"},
		flags: func(fs *pflag.FlagSet, f *filters) {
			fs.StringVar(&f.query, "query", "", "only Badges whose name matches `text`")
		},
		list: func(ctx context.Context, c *workforce.Client, f *filters, per int) iter.Seq2[row, error] {
			return rows(c.Badges.All(ctx, &workforce.BadgeListOptions{ListOptions: page(per), Query: f.query}), rawBadge, badgeCells)
		},
		get: func(ctx context.Context, c *workforce.Client, n int64) (row, error) {
			r, resp, err := c.Badges.Get(ctx, n)
			return one(r, resp, err, rawBadge, badgeCells)
		},
	},
	{
		name: "messages", what: "Messages",
		columns: []string{"ID", "JOB", "SENDER", "RECEIVER", "CREATED", "BODY"},
		flags: func(fs *pflag.FlagSet, f *filters) {
			fs.Int64Var(&f.job, "job", 0, "only the Messages about the Job `id`")
			fs.Int64Var(&f.sender, "sender", 0, "only the Messages the User `id` sent")
			fs.Int64Var(&f.receiver, "receiver", 0, "only the Messages the User `id` received")
		},
		list: func(ctx context.Context, c *workforce.Client, f *filters, per int) iter.Seq2[row, error] {
			return rows(c.Messages.All(ctx, &workforce.MessageListOptions{ListOptions: page(per), JobID: f.job,
				SenderID: f.sender, ReceiverID: f.receiver}), rawMessage, messageCells)
		},
		get: func(ctx context.Context, c *workforce.Client, n int64) (row, error) {
			r, resp, err := c.Messages.Get(ctx, n)
			return one(r, resp, err, rawMessage, messageCells)
		},
	},
}

func rawJob(r *workforce.Job) json.RawMessage { return r.Raw }
func jobCells(r *workforce.Job) []string {
	return []string{id(r.ID), string(r.State), id(r.JobRequestID), id(r.WorkerID), when(r.UpdatedAt)}
}

func rawJobRequest(r *workforce.JobRequest) json.RawMessage { return r.Raw }
func jobRequestCells(r *workforce.JobRequest) []string {
	return []string{id(r.ID), string(r.State), r.RequestName, id(r.CustomerID), when(r.StartTime), when(r.UpdatedAt)}
}

func rawUser(r *workforce.User) json.RawMessage { return r.Raw }
func userCells(r *workforce.User) []string {
	return []string{id(r.ID), string(r.Type), r.FirstName + " " + r.LastName, r.Email, when(r.UpdatedAt)}
}

func rawCustomer(r *workforce.Customer) json.RawMessage { return r.Raw }
func customerCells(r *workforce.Customer) []string {
	return []string{id(r.ID), r.Name, r.City, r.State}
}

func rawBadge(r *workforce.Badge) json.RawMessage { return r.Raw }
func badgeCells(r *workforce.Badge) []string      { return []string{id(r.ID), r.Name, r.Description} }

func rawMessage(r *workforce.Message) json.RawMessage { return r.Raw }
func messageCells(r *workforce.Message) []string {
	return []string{id(r.ID), id(r.JobID), id(r.SenderID), id(r.ReceiverID), when(r.CreatedAt), r.Body}
}
