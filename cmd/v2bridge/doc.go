// Command v2bridge is the one binary of the project:
//
//	v2bridge demo          gateway + embedded NerdGraph simulator with demo data (make run)
//	v2bridge serve         the gateway in front of NerdGraph (production)
//	v2bridge sim           the NerdGraph simulator alone
//	v2bridge explain       what a REST v2 request becomes in NerdGraph, without calling it
//	v2bridge verify        REST v2 and the translation side by side on the caller's account
//	v2bridge config check  every problem of a configuration file at once
//	v2bridge hash-key      the hash a user key is known by in logs, reports and settings
//	v2bridge help          the commands, or one command's flags and environment variables
//	v2bridge version       version, commit and build date
package main
