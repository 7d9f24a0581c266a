//! SERVICE_NO_DELETE: a service is missing from a file that still exists. buf points at the
//! file, as the service has no place left in it.

use ahash::AHashSet as HashSet;

use crate::finding::{Location, Sink};
use crate::rules::pairs::FilePair;
use crate::rules::quote::quote;

pub(in crate::rules) fn check(FilePair { new, old }: FilePair, out: &mut Sink) {
    let kept: HashSet<&str> = new.services.iter().map(|s| s.name.as_str()).collect();
    for service in &old.services {
        if kept.contains(service.name.as_str()) {
            continue;
        }
        out.add(
            Some(Location::in_file(new, None)),
            Some(Location::in_file(old, Some(service.span))),
            format!(
                "Previously present service {} was deleted from file.",
                quote(&service.name)
            ),
        )
        .help = Some(format!(
            "restore service {}; clients still call it — deprecate it \
             (`option deprecated = true;`) and remove it once no client uses it",
            service.name
        ));
    }
}
