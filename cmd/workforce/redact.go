package main

import (
	"errors"
	"net/url"
	"sort"
	"strings"
)

// printableURL answers the receiver URL s as it may be printed: without user or password, with
// each query value and the fragment elided ("?token=…"), so that no secret a receiver's URL
// carries reaches the output. Text that is no URL is elided whole.
func printableURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(a URL that does not parse)"
	}
	u.User = nil
	if u.Fragment != "" || u.RawFragment != "" {
		u.Fragment, u.RawFragment = "…", ""
	}
	if u.RawQuery != "" {
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			u.RawQuery = "…"
		} else {
			keys := make([]string, 0, len(q))
			for k := range q {
				keys = append(keys, url.QueryEscape(k)+"=…")
			}
			sort.Strings(keys)
			u.RawQuery = strings.Join(keys, "&")
		}
	}
	return u.String()
}

// printableError answers err with the URL a *url.Error names made printable (see printableURL),
// and any other mention of the raw URL to in its text replaced too.
func printableError(err error, to string) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = printableURL(ue.URL)
	}
	s := err.Error()
	if to != "" {
		s = strings.ReplaceAll(s, to, printableURL(to))
	}
	return s
}
