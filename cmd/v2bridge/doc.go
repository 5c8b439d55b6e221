// Command v2bridge is the one binary of the project:
//
//	v2bridge demo    gateway + embedded NerdGraph simulator with demo data (make run)
//	v2bridge serve   the gateway in front of NerdGraph (production)
//	v2bridge sim     the NerdGraph simulator alone
//	v2bridge version version, commit and build date
package main
