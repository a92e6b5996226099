//! IP networks inside the trust boundary (`[bot] internal_networks`):
//! a setting, read by the mail's authentication checks.

use std::net::IpAddr;
use std::str::FromStr;

/// An IP network (`10.0.0.0/8`, `2001:db8::/32`, or one address) whose
/// hops are inside the trust boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Network {
    pub(crate) addr: IpAddr,
    pub(crate) prefix: u8,
}

impl Network {
    /// Whether `ip` lies in the network.
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(n) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(n) & mask == u128::from(a) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for Network {
    type Err = String;

    fn from_str(s: &str) -> Result<Network, String> {
        let (addr, prefix) = match s.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s.trim(), None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{s:?} is not an IP address or network (e.g. 10.0.0.0/8)"))?;
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => most,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= most)
                .ok_or_else(|| format!("{s:?}: the prefix length must be 0 to {most}"))?,
        };
        Ok(Network { addr, prefix })
    }
}

/// As written in the configuration: `10.0.0.0/8`.
impl serde::Serialize for Network {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{}/{}", self.addr, self.prefix))
    }
}

impl<'de> serde::Deserialize<'de> for Network {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Network, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
