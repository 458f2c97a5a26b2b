import { Fragment } from 'preact';
import type { Label, Track } from '../../api.js';
import { trackingUrl } from '../../tracking.js';

/**
 * Tracks as an operator follows them: the carrier's name and the number, a link to the
 * carrier's tracking page where one is known; never the record they are stored as.
 */
export function TrackList({
  tracks,
  labels,
}: {
  tracks: readonly Track[];
  labels: readonly Label[];
}) {
  if (tracks.length === 0) return <span class="subtle">none</span>;
  return (
    <span class="tracks">
      {tracks.map((track, index) => {
        const url = trackingUrl(track, labels);
        return (
          <Fragment key={`${track.carrier_code}/${track.track_number}`}>
            {index > 0 && ', '}
            <span class="track">
              {track.title || track.carrier_code}{' '}
              {url ? (
                <a href={url} target="_blank" rel="noopener noreferrer">
                  {track.track_number}
                </a>
              ) : (
                <span class="mono">{track.track_number}</span>
              )}
            </span>
          </Fragment>
        );
      })}
    </span>
  );
}
